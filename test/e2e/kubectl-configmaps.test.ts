// Real kubectl against a Capstan process: version, the system namespaces, and a ConfigMap's life.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';

describe('kubectl against capstan: configmaps', () => {
  let capstan: CapstanProcess;
  const kubectl = (args: readonly string[], input?: string): Promise<KubectlResult> =>
    runKubectl(args, { kubeconfig: capstan.kubeconfigPath, ...(input === undefined ? {} : { input }) });
  const ok = (r: KubectlResult): KubectlResult => {
    assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
    return r;
  };

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
  });

  after(async () => {
    await capstan.stop();
  });

  it('reports the server version, trusting the CA in the kubeconfig', async () => {
    const version = JSON.parse(ok(await kubectl(['version', '-o', 'json'])).stdout) as {
      serverVersion: Record<string, string>;
    };
    assert.equal(version.serverVersion['major'], '1');
    assert.equal(version.serverVersion['minor'], '33');
    assert.match(version.serverVersion['gitVersion'] ?? '', /^v1\.33\.0\+capstan/);
  });

  it('lists the four system namespaces', async () => {
    const names = ok(await kubectl(['get', 'namespaces', '-o', 'name']))
      .stdout.trim()
      .split('\n')
      .sort();
    assert.deepEqual(names, [
      'namespace/default',
      'namespace/kube-node-lease',
      'namespace/kube-public',
      'namespace/kube-system',
    ]);
  });

  it('creates, reads and deletes a configmap', async () => {
    assert.equal(
      ok(await kubectl(['create', 'configmap', 'e2e-settings', '--from-literal=color=blue', '-n', 'default']))
        .stdout,
      'configmap/e2e-settings created\n',
    );
    const cm = JSON.parse(
      ok(await kubectl(['get', 'cm', 'e2e-settings', '-n', 'default', '-o', 'json'])).stdout,
    ) as {
      kind: string;
      apiVersion: string;
      data: Record<string, string>;
      metadata: {
        name: string;
        namespace: string;
        uid: string;
        resourceVersion: string;
        creationTimestamp: string;
      };
    };
    assert.equal(cm.kind, 'ConfigMap');
    assert.equal(cm.apiVersion, 'v1');
    assert.deepEqual(cm.data, { color: 'blue' });
    assert.equal(cm.metadata.name, 'e2e-settings');
    assert.equal(cm.metadata.namespace, 'default');
    assert.match(cm.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.match(cm.metadata.resourceVersion, /^\d+$/);
    assert.ok(!Number.isNaN(Date.parse(cm.metadata.creationTimestamp)));

    const table = ok(await kubectl(['get', 'cm', '-n', 'default'])).stdout;
    assert.match(table, /^NAME\s+DATA\s+AGE\n/);
    assert.match(table, /\ne2e-settings\s+1\s+\d+s\n/);

    assert.equal(
      ok(await kubectl(['delete', 'cm', 'e2e-settings', '-n', 'default'])).stdout,
      'configmap "e2e-settings" deleted\n',
    );
    const gone = await kubectl(['get', 'cm', 'e2e-settings', '-n', 'default']);
    assert.equal(gone.code, 1);
    assert.equal(gone.stderr, 'Error from server (NotFound): configmaps "e2e-settings" not found\n');
  });
});
