// csrcleaner on a virtual clock: what a pass deletes (kube's ages), and the hourly passes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import { CSRCleanerController, cleanupReason } from './csr-cleaner-controller.js';
import { CSRSigningController } from './csr-signing-controller.js';
import { csrObject, everySigner, newCSREnv, newTestCA, type CSREnv } from './testing/csr-env.js';
import { newCSR } from './testing/new-csr.js';
import { waitFor } from '../../../machinery/testing/wait-for.js';

const minute = 60_000;
const hour = 60 * minute;
const at = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

describe('csrcleaner', () => {
  const now = Date.parse('2026-03-02T00:00:00Z');
  const csr = (conditions: { type: string; lastUpdateTime: string }[], more: object = {}) => ({
    metadata: { name: 'x', creationTimestamp: at(now - 2 * hour) },
    status: { conditions: conditions.map((c) => ({ ...c, status: 'True' })), ...more },
  });

  it('deletes what kube does, at its ages', () => {
    assert.equal(
      cleanupReason(csr([{ type: 'Approved', lastUpdateTime: at(now - 2 * hour) }]), now),
      undefined,
    );
    assert.match(
      cleanupReason(
        csr([{ type: 'Approved', lastUpdateTime: at(now - 61 * minute) }], { certificate: 'eA==' }),
        now,
      ) ?? '',
      /approvedExpiration duration old and approved/,
    );
    assert.match(
      cleanupReason(csr([{ type: 'Denied', lastUpdateTime: at(now - 61 * minute) }]), now) ?? '',
      /and denied/,
    );
    assert.match(
      cleanupReason(csr([{ type: 'Failed', lastUpdateTime: at(now - 61 * minute) }]), now) ?? '',
      /and failed/,
    );
    assert.equal(
      cleanupReason(csr([{ type: 'Denied', lastUpdateTime: at(now - 59 * minute) }]), now),
      undefined,
    );
    assert.equal(cleanupReason(csr([]), now), undefined);
    assert.match(
      cleanupReason({ metadata: { creationTimestamp: at(now - 25 * hour) } }, now) ?? '',
      /pendingExpiration duration old and unhandled/,
    );
  });

  describe('over storage', () => {
    let env: CSREnv;
    let cleaner: CSRCleanerController;
    let signer: CSRSigningController;
    const logger = new Logger({ sink: memorySink() });

    before(async () => {
      env = await newCSREnv();
      signer = new CSRSigningController({
        storages: env.storages,
        signers: everySigner(newTestCA(env.clock.now())),
        certTTLMs: 365 * 24 * hour,
        logger,
        clock: env.clock,
      });
      signer.run();
      cleaner = new CSRCleanerController({ storages: env.storages, logger, clock: env.clock });
    });
    after(async () => {
      await cleaner.close();
      await signer.close();
      await env.close();
    });

    it('deletes an expired certificate and an old pending request on the hourly pass', async () => {
      const { request } = newCSR({ subject: { commonName: 'short' } });
      const spec = { request, signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] };
      await env.create(csrObject('short', { ...spec, expirationSeconds: 600 }));
      await env.create(csrObject('waiting', spec));
      await env.decide('short', 'Approved');
      await waitFor(
        'a certificate',
        () => env.get('short'),
        (c) => (c?.status?.certificate ?? '') !== '',
      );
      cleaner.run();
      await cleaner.pass();
      assert.ok((await env.get('short')) !== undefined);
      // The certificate (10 minutes) expires, but the approval is not an hour old: expired wins.
      await env.clock.advance(11 * minute);
      await cleaner.pass();
      assert.equal(await env.get('short'), undefined);
      assert.ok((await env.get('waiting')) !== undefined);
      // A day on: the hourly passes delete the pending one.
      await env.clock.advance(25 * hour);
      await waitFor(
        'the pending request gone',
        () => env.get('waiting'),
        (c) => c === undefined,
      );
    });
  });
});
