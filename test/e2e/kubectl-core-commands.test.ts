// The real kubectl against one Capstan process: the core commands of issue 6 not covered
// elsewhere: `create secret tls|docker-registry`, `create serviceaccount`, `get events`, deleting an
// unbound pod (at once), and `delete namespace` finishing with its contents gone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { namespace, tableRows } from './support/kube-objects.js';

const ns = 'e2e-commands';

describe('kubectl against capstan: core commands', () => {
  let capstan: CapstanProcess;
  const { kubectl, ok, fails } = kubectlSession(() => capstan.kubeconfigPath);
  const json = async <T>(args: readonly string[]): Promise<T> =>
    JSON.parse(await ok([...args, '-o', 'json'])) as T;

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
    await ok(['create', '-f', '-'], JSON.stringify(namespace(ns)));
  });
  after(async () => {
    await capstan.stop();
  });

  it('create secret tls takes a certificate and key pair; a mismatched pair fails in kubectl', async () => {
    const pki = join(capstan.dataDir, 'pki');
    const [cert, key] = [join(pki, 'apiserver.crt'), join(pki, 'apiserver.key')];
    assert.equal(
      await ok(['create', 'secret', 'tls', 'web-tls', `--cert=${cert}`, `--key=${key}`, '-n', ns]),
      'secret/web-tls created\n',
    );
    const s = await json<{ type: string; data: Record<string, string> }>([
      'get',
      'secret',
      'web-tls',
      '-n',
      ns,
    ]);
    assert.equal(s.type, 'kubernetes.io/tls');
    assert.deepEqual(Object.keys(s.data).sort(), ['tls.crt', 'tls.key']);
    const stderr = await fails([
      'create',
      'secret',
      'tls',
      'bad',
      `--cert=${cert}`,
      `--key=${join(pki, 'ca.key')}`,
      '-n',
      ns,
    ]);
    assert.match(stderr, /private key does not match public key/);
  });

  it('create secret docker-registry writes a .dockerconfigjson the server validates', async () => {
    await ok([
      'create',
      'secret',
      'docker-registry',
      'regcred',
      '--docker-server=registry.example.com',
      '--docker-username=u',
      '--docker-password=p',
      '-n',
      ns,
    ]);
    const s = await json<{ type: string; data: Record<string, string> }>([
      'get',
      'secret',
      'regcred',
      '-n',
      ns,
    ]);
    assert.equal(s.type, 'kubernetes.io/dockerconfigjson');
    const config = JSON.parse(Buffer.from(s.data['.dockerconfigjson'] ?? '', 'base64').toString()) as {
      auths: Record<string, { username: string }>;
    };
    assert.equal(config.auths['registry.example.com']?.username, 'u');
    // The type's required key is checked by the server, with kube's message.
    const stderr = await fails(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'nokey', namespace: ns },
        type: 'kubernetes.io/dockerconfigjson',
        data: {},
      }),
    );
    assert.match(stderr, /data\[\.dockerconfigjson\]: Required value/);
  });

  it('create serviceaccount, and get sa shows it next to default', async () => {
    assert.equal(
      await ok(['create', 'serviceaccount', 'builder', '-n', ns]),
      'serviceaccount/builder created\n',
    );
    const rows = tableRows(await ok(['get', 'sa', '-n', ns]));
    assert.deepEqual(rows[0], ['NAME', 'SECRETS', 'AGE']);
    assert.deepEqual(
      rows
        .slice(1)
        .map((r) => r[0])
        .sort(),
      ['builder', 'default'],
    );
  });

  it('get events prints kube columns for an event about a pod', async () => {
    await ok(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.1', namespace: ns },
        involvedObject: { kind: 'Pod', name: 'web', namespace: ns },
        reason: 'Pulled',
        message: 'Container image "nginx" already present on machine',
        type: 'Normal',
        source: { component: 'kubelet' },
        firstTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        count: 1,
      }),
    );
    const rows = tableRows(await ok(['get', 'events', '-n', ns]));
    assert.deepEqual(rows[0], ['LAST', 'SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    assert.deepEqual(rows[1]?.slice(1, 4), ['Normal', 'Pulled', 'pod/web']);
  });

  it('delete pod returns at once for a pod never bound to a node', async () => {
    await ok(['run', 'once', '--image=nginx', '-n', ns]);
    const started = Date.now();
    assert.equal(await ok(['delete', 'pod', 'once', '-n', ns]), 'pod "once" deleted\n');
    assert.ok(Date.now() - started < 5000, 'an unbound pod is deleted without a grace period');
    const r = await kubectl(['get', 'pod', 'once', '-n', ns]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /pods "once" not found/);
  });

  it('delete namespace completes, and what was in it is gone', async () => {
    await ok(['create', 'namespace', 'doomed']);
    await ok(['create', 'configmap', 'c', '--from-literal=a=1', '-n', 'doomed']);
    await ok(['create', 'deployment', 'd', '--image=nginx', '-n', 'doomed']);
    await ok(['create', 'service', 'clusterip', 's', '--tcp=80:80', '-n', 'doomed']);
    assert.equal(
      await ok(['delete', 'namespace', 'doomed', '--timeout=60s']),
      'namespace "doomed" deleted\n',
    );
    const r = await kubectl(['get', 'namespace', 'doomed']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /namespaces "doomed" not found/);
    for (const resource of ['configmaps', 'deployments', 'services', 'serviceaccounts']) {
      assert.equal(await ok(['get', resource, '-n', 'doomed', '-o', 'name']), '', resource);
    }
  });
});
