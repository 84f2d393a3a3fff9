// The real kubectl's typed commands against a Capstan process. `kubectl create configmap|secret|
// namespace` go through client-go's typed clients, which send built-in kinds as
// application/vnd.kubernetes.protobuf; Capstan answers in JSON.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl } from './support/kubectl.js';

interface Fetched {
  readonly type?: string;
  readonly data?: Record<string, string>;
  readonly binaryData?: Record<string, string>;
  readonly spec?: { finalizers?: string[] };
  readonly status?: { phase?: string };
  readonly metadata: { name: string; namespace?: string; uid: string; creationTimestamp: string };
}

describe('kubectl typed commands (protobuf bodies) against capstan', () => {
  let capstan: CapstanProcess;
  let dir: string;
  const ok = async (args: readonly string[]): Promise<string> => {
    const r = await runKubectl(args, { kubeconfig: capstan.kubeconfigPath });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };
  const getJson = async (args: readonly string[]): Promise<Fetched> =>
    JSON.parse(await ok([...args, '-o', 'json'])) as Fetched;

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
    dir = await mkdtemp(join(tmpdir(), 'capstan-kubectl-pb-'));
  });

  after(async () => {
    await capstan.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('create configmap from literals and a binary file', async () => {
    const blob = join(dir, 'blob.bin');
    await writeFile(blob, Buffer.from([0, 1, 2, 0xff]));
    const created = await ok([
      'create',
      'configmap',
      'settings',
      '-n',
      'default',
      '--from-literal=color=blue',
      `--from-file=blob.bin=${blob}`,
    ]);
    assert.equal(created, 'configmap/settings created\n');
    const cm = await getJson(['get', 'cm', 'settings', '-n', 'default']);
    assert.deepEqual(cm.data, { color: 'blue' });
    assert.deepEqual(cm.binaryData, { 'blob.bin': 'AAEC/w==' });
    assert.equal(cm.metadata.namespace, 'default');
    assert.match(cm.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(cm.metadata.creationTimestamp)));
    assert.equal(await ok(['delete', 'cm', 'settings', '-n', 'default']), 'configmap "settings" deleted\n');
  });

  it('create secret generic: the type defaults to Opaque, values are base64', async () => {
    assert.equal(
      await ok(['create', 'secret', 'generic', 's', '--from-literal=a=b', '-n', 'default']),
      'secret/s created\n',
    );
    const s = await getJson(['get', 'secret', 's', '-n', 'default']);
    assert.equal(s.type, 'Opaque');
    assert.deepEqual(s.data, { a: Buffer.from('b').toString('base64') });
    assert.equal(await ok(['delete', 'secret', 's', '-n', 'default']), 'secret "s" deleted\n');
  });

  it('create namespace with content, then delete it: the namespace controller empties it and it goes', async () => {
    assert.equal(await ok(['create', 'namespace', 'n']), 'namespace/n created\n');
    const ns = await getJson(['get', 'namespace', 'n']);
    assert.deepEqual(ns.spec?.finalizers, ['kubernetes']);
    assert.equal(ns.status?.phase, 'Active');
    assert.equal(
      await ok(['create', 'configmap', 'inside', '-n', 'n', '--from-literal=a=b']),
      'configmap/inside created\n',
    );
    // kubectl delete waits until the namespace is gone: Terminating, emptied, finalized, removed.
    assert.equal(await ok(['delete', 'namespace', 'n', '--timeout=60s']), 'namespace "n" deleted\n');
    const gone = await runKubectl(['get', 'namespace', 'n'], { kubeconfig: capstan.kubeconfigPath });
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /namespaces "n" not found/);
    // Its content went with it, and nothing can be created in a namespace that does not exist.
    const late = await runKubectl(['create', 'configmap', 'late', '-n', 'n'], {
      kubeconfig: capstan.kubeconfigPath,
    });
    assert.equal(late.code, 1);
    assert.match(late.stderr, /namespaces "n" not found/);
  });
});
