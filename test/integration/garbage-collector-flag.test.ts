// --enable-garbage-collector through the command: with it (the default) a DELETE asking to orphan
// dependents leaves the object with the orphan finalizer for a garbage collector; without it the
// object goes at once, as kube-apiserver does when its flag is false.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../src/cmd/capstan.js';
import { freePort } from '../e2e/support/capstan-process.js';

async function withServer(flags: readonly string[], fn: (url: string) => Promise<void>): Promise<void> {
  const port = await freePort();
  let stop: (sig: string) => void = () => undefined;
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const exited = main(
    ['--storage-backend=memory', '--secure-port=0', `--insecure-port=${port}`, '--anonymous-auth', ...flags],
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

async function orphanDelete(url: string): Promise<unknown> {
  const cms = `${url}/api/v1/namespaces/default/configmaps`;
  const created = await fetch(cms, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ metadata: { name: 'owner' } }),
  });
  assert.equal(created.status, 201);
  const deleted = await fetch(`${cms}/owner`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' }),
  });
  assert.equal(deleted.status, 200);
  const after = await fetch(`${cms}/owner`);
  return after.status === 404 ? undefined : ((await after.json()) as { metadata: unknown }).metadata;
}

describe('--enable-garbage-collector', () => {
  it('on by default: an orphaning delete leaves the object to the garbage collector', () =>
    withServer([], async (url) => {
      const meta = (await orphanDelete(url)) as { finalizers?: string[]; deletionTimestamp?: string };
      assert.deepEqual(meta.finalizers, ['orphan']);
      assert.ok(meta.deletionTimestamp !== undefined);
    }));

  it('off: the object is deleted at once', () =>
    withServer(['--enable-garbage-collector=false'], async (url) => {
      assert.equal(await orphanDelete(url), undefined);
    }));
});
