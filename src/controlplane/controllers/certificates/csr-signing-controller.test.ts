// csrsigning over real CSR storages on a virtual clock: an approved kube-apiserver-client request
// is issued a certificate by the CA for the lifetime asked (notBefore 5 minutes back); a pending
// or denied one is left alone; one a signer refuses is marked Failed with kube's reason and text.
// With a CA per signer, each request is issued by its signer's CA, and a signer given none is left
// alone altogether (no certificate, no Failed condition).
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type {
  BuiltinSignerName,
  CertificateSigningRequest,
} from '../../../api/certificates/v1/certificate-signing-request.js';
import type { SigningCA } from '../../../server/tls/signing-ca.js';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import { CSRSigningController } from './csr-signing-controller.js';
import { csrObject, everySigner, newCSREnv, newTestCA, type CSREnv } from './testing/csr-env.js';
import { newCSR } from './testing/new-csr.js';
import { waitFor as waitUntil } from '../../../machinery/testing/wait-for.js';

/** The value once `get` has one. */
const waitFor = async <T>(what: string, get: () => Promise<T | undefined>): Promise<T> =>
  (await waitUntil(what, get, (v) => v !== undefined)) as T;

const client = 'kubernetes.io/kube-apiserver-client';

/** A CSR env with a signing controller running over it, issuing for a year; `close` ends both. */
async function startSigning(
  signers: ReadonlyMap<BuiltinSignerName, SigningCA>,
): Promise<{ env: CSREnv; close: () => Promise<void> }> {
  const env = await newCSREnv();
  const controller = new CSRSigningController({
    storages: env.storages,
    signers,
    certTTLMs: 365 * 86_400_000,
    logger: new Logger({ sink: memorySink() }),
    clock: env.clock,
  });
  controller.run();
  return {
    env,
    close: async () => {
      await controller.close();
      await env.close();
    },
  };
}

/** The certificate issued to the request, if any yet. */
async function certificateIn(env: CSREnv, name: string): Promise<X509Certificate | undefined> {
  const b64 = (await env.get(name))?.status?.certificate ?? '';
  return b64 === '' ? undefined : new X509Certificate(Buffer.from(b64, 'base64'));
}

describe('csrsigning controller', () => {
  let env: CSREnv;
  let close: () => Promise<void>;
  const ca = newTestCA(Date.parse('2026-03-01T00:00:00Z'));
  const certificateOf = (name: string) => certificateIn(env, name);
  const failedOf = (name: string) =>
    env.get(name).then((c) => c?.status?.conditions?.find((x) => x.type === 'Failed'));

  before(async () => {
    ({ env, close } = await startSigning(everySigner(ca)));
  });
  after(() => close());

  it('issues an approved client request: subject, usages and lifetime as asked', async () => {
    const { request } = newCSR({ subject: { commonName: 'jane', organization: ['devs'] }, keyType: 'rsa' });
    await env.create(
      csrObject('jane', { request, signerName: client, usages: ['client auth'], expirationSeconds: 3600 }),
    );
    await env.decide('jane', 'Approved');
    const cert = await waitFor('a certificate for jane', () => certificateOf('jane'));
    assert.equal(cert.subject, 'O=devs\nCN=jane');
    assert.ok(cert.verify(ca.certificate.publicKey));
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    const now = env.clock.now();
    // Short-lived (under 8 hours): notAfter is not backdated.
    assert.equal(Date.parse(cert.validFrom), now - 300_000);
    assert.equal(Date.parse(cert.validTo), now + 3_600_000);
    const conditions = (await env.get('jane'))?.status?.conditions?.map((c) => c.type);
    assert.deepEqual(conditions, ['Approved']);
  });

  it('leaves pending and denied requests, and other signers', async () => {
    const { request } = newCSR({ subject: { commonName: 'bob' } });
    await env.create(csrObject('pending', { request, signerName: client, usages: ['client auth'] }));
    await env.create(csrObject('denied', { request, signerName: client, usages: ['client auth'] }));
    await env.decide('denied', 'Denied');
    await env.create(
      csrObject('other', { request, signerName: 'example.com/signer', usages: ['client auth'] }),
    );
    await env.decide('other', 'Approved');
    // A request approved after them is signed: the ones before it were passed over.
    await env.create(csrObject('marker', { request, signerName: client, usages: ['client auth'] }));
    await env.decide('marker', 'Approved');
    await waitFor('the marker', () => certificateOf('marker'));
    for (const name of ['pending', 'denied', 'other']) {
      const csr: CertificateSigningRequest | undefined = await env.get(name);
      assert.equal(csr?.status?.certificate, undefined, name);
    }
  });

  it('marks Failed what the signer refuses, with kube reason and message', async () => {
    const { request } = newCSR({ subject: { commonName: 'web' } });
    await env.create(
      csrObject('server-usage', { request, signerName: client, usages: ['client auth', 'server auth'] }),
    );
    await env.decide('server-usage', 'Approved');
    const failed = await waitFor('Failed', () => failedOf('server-usage'));
    assert.equal(failed.status, 'True');
    assert.equal(failed.reason, 'SignerValidationFailure');
    assert.equal(failed.message, 'invalid usage for client certificate: server auth');
    assert.equal(failed.lastUpdateTime, new Date(env.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'));
    assert.equal((await env.get('server-usage'))?.status?.certificate, undefined);

    const node = newCSR({ subject: { commonName: 'system:node:n1', organization: ['system:nodes'] } });
    await env.create(
      csrObject('serving-no-san', {
        request: node.request,
        signerName: 'kubernetes.io/kubelet-serving',
        usages: ['digital signature', 'server auth'],
      }),
    );
    await env.decide('serving-no-san', 'Approved');
    assert.equal(
      (await waitFor('Failed', () => failedOf('serving-no-san'))).message,
      'DNS or IP subjectAltName is required',
    );
  });

  it('issues a kubelet serving certificate with its names', async () => {
    const { request } = newCSR({
      subject: { commonName: 'system:node:n1', organization: ['system:nodes'] },
      dnsNames: ['n1.cluster.local'],
      ipAddresses: ['10.0.0.7'],
    });
    await env.create(
      csrObject('serving', {
        request,
        signerName: 'kubernetes.io/kubelet-serving',
        usages: ['digital signature', 'key encipherment', 'server auth'],
      }),
    );
    await env.decide('serving', 'Approved');
    const cert = await waitFor('a serving certificate', () => certificateOf('serving'));
    assert.equal(cert.subjectAltName, 'DNS:n1.cluster.local, IP Address:10.0.0.7');
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    // A year is the cluster signing duration; long-lived: notAfter backdated 5 minutes too.
    assert.equal(Date.parse(cert.validTo), env.clock.now() + 365 * 86_400_000 - 300_000);
  });
});

describe('csrsigning controller with a CA per signer', () => {
  let env: CSREnv;
  let close: () => Promise<void>;
  const now = Date.parse('2026-03-01T00:00:00Z');
  const clientCA = newTestCA(now);
  const servingCA = newTestCA(now);
  const certificateOf = (name: string) => certificateIn(env, name);

  before(async () => {
    // The kubelet client and legacy-unknown signers have no files: kube runs no loop for them
    // (and certificates.k8s.io/v1 refuses legacy-unknown requests, so only the first is tried).
    ({ env, close } = await startSigning(
      new Map([
        [client, clientCA],
        ['kubernetes.io/kubelet-serving', servingCA],
      ]),
    ));
  });
  after(() => close());

  it("issues each signer's requests with its own CA and leaves a signer without one alone", async () => {
    const node = newCSR({
      subject: { commonName: 'system:node:n1', organization: ['system:nodes'] },
      dnsNames: ['n1.cluster.local'],
    });
    const serving = ['digital signature', 'key encipherment', 'server auth'];
    // A refusal of the kubelet client signer would mark this one Failed (no client usage): it has no loop.
    await env.create(
      csrObject('kubelet-client', {
        request: node.request,
        signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
        usages: serving,
      }),
    );
    await env.decide('kubelet-client', 'Approved');
    await env.create(
      csrObject('serving', {
        request: node.request,
        signerName: 'kubernetes.io/kubelet-serving',
        usages: serving,
      }),
    );
    await env.decide('serving', 'Approved');
    const jane = newCSR({ subject: { commonName: 'jane' } });
    await env.create(
      csrObject('jane', { request: jane.request, signerName: client, usages: ['client auth'] }),
    );
    await env.decide('jane', 'Approved');

    const servingCert = await waitFor('a serving certificate', () => certificateOf('serving'));
    assert.ok(servingCert.verify(servingCA.certificate.publicKey));
    assert.ok(!servingCert.verify(clientCA.certificate.publicKey));
    const clientCert = await waitFor('a client certificate', () => certificateOf('jane'));
    assert.ok(clientCert.verify(clientCA.certificate.publicKey));
    assert.ok(!clientCert.verify(servingCA.certificate.publicKey));
    // Both issued after the kubelet client request's approval, which was passed over.
    const passed = await env.get('kubelet-client');
    assert.equal(passed?.status?.certificate, undefined);
    assert.deepEqual(
      passed?.status?.conditions?.map((c) => c.type),
      ['Approved'],
    );
  });
});
