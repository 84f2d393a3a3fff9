// --enable-garbage-collector through the command: with it (the default) a DELETE asking to orphan
// dependents leaves the object with the orphan finalizer, which the garbage collector then removes
// (the object goes); without it the object goes at once, as kube-apiserver does when its flag is
// false (and no collector runs).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cmd/capstan.js';
import { freePort } from '../e2e/support/capstan-process.js';

// Anonymous requests get nothing under AlwaysAllow (kube turns --anonymous-auth off there): an admin token.
const token = 'gc-flag-admin-token';
let tokenDir = '';
before(async () => {
  tokenDir = await mkdtemp(join(tmpdir(), 'capstan-gc-flag-'));
  await writeFile(join(tokenDir, 'tokens.csv'), `${token},admin,u-admin,system:masters\n`);
});
after(() => rm(tokenDir, { recursive: true, force: true }));

const send = (url: string, init: { method?: string; body?: string } = {}): Promise<Response> =>
  fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });

async function withServer(flags: readonly string[], fn: (url: string) => Promise<void>): Promise<void> {
  const port = await freePort();
  let stop: (sig: string) => void = () => undefined;
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const exited = main(
    [
      '--storage-backend=memory',
      '--secure-port=-1',
      `--insecure-port=${port}`,
      `--token-auth-file=${join(tokenDir, 'tokens.csv')}`,
      ...flags,
    ],
    {
      stdout: { write: () => true },
      stderr: { write: () => true },
      waitForSignal: () => new Promise<string>((resolve) => (stop = resolve)),
      onReady: ready,
    },
  );
  await Promise.race([isReady, exited.then((code) => assert.fail(`exited with ${code}`))]);
  try {
    await fn(`http://127.0.0.1:${port}`);
  } finally {
    stop('SIGTERM');
    assert.equal(await exited, 0);
  }
}

const cms = (url: string): string => `${url}/api/v1/namespaces/default/configmaps`;

/** The DELETE's answer, and the object's metadata right after (undefined once it is gone). */
async function orphanDelete(url: string): Promise<{ answer: { metadata?: unknown }; after: unknown }> {
  const created = await send(cms(url), {
    method: 'POST',
    body: JSON.stringify({ metadata: { name: 'owner' } }),
  });
  assert.equal(created.status, 201);
  const deleted = await send(`${cms(url)}/owner`, {
    method: 'DELETE',
    body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' }),
  });
  assert.equal(deleted.status, 200);
  const answer = (await deleted.json()) as { metadata?: unknown };
  const after = await send(`${cms(url)}/owner`);
  return {
    answer,
    after: after.status === 404 ? undefined : ((await after.json()) as { metadata: unknown }).metadata,
  };
}

/** Polls until the object is gone (at most 10 s). */
async function gone(url: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await send(`${cms(url)}/owner`)).status === 404) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail('the orphaning deletion did not finish');
}

describe('--enable-garbage-collector', () => {
  it('on by default: an orphaning delete leaves the object to the garbage collector, which finishes it', () =>
    withServer([], async (url) => {
      const { answer } = await orphanDelete(url);
      const meta = answer.metadata as { finalizers?: string[]; deletionTimestamp?: string };
      assert.deepEqual(meta.finalizers, ['orphan']);
      assert.ok(meta.deletionTimestamp !== undefined);
      await gone(url);
    }));

  it('off: the object is deleted at once', () =>
    withServer(['--enable-garbage-collector=false'], async (url) => {
      const { answer, after } = await orphanDelete(url);
      assert.equal((answer as { kind?: string }).kind, 'Status');
      assert.equal(after, undefined);
    }));
});
