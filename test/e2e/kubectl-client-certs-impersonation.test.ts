// The real kubectl against one Capstan process with --client-ca-file and RBAC: kubeconfigs with
// client certificates (CN = user, O = groups), a certificate from another CA refused with 401,
// `kubectl auth whoami`, impersonation with `--as` / `--as-group` allowed or refused by RBAC, and a
// kubelet's certificate (system:node:<name>, O=system:nodes) limited by the Node authorizer and
// NodeRestriction as kind's kube-apiserver flags have it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { tableRows } from './support/kube-objects.js';
import { newTestCA, type TestClientCertificate } from '../../src/server/tls/testing/test-ca.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('kubectl against capstan: client certificates and impersonation', () => {
  const clientCA = newTestCA('capstan-e2e-client-ca');
  const otherCA = newTestCA('capstan-e2e-client-ca');
  const proxyCA = newTestCA('capstan-e2e-front-proxy-ca');
  let dir: string;
  let capstan: CapstanProcess;
  const admin = kubectlSession(() => capstan.kubeconfigPath);

  /** A kubeconfig for `cert` against the server, trusting the server's CA as the admin one does. */
  async function certSession(
    name: string,
    cert: TestClientCertificate,
  ): Promise<ReturnType<typeof kubectlSession>> {
    const adminConfig = await readFile(capstan.kubeconfigPath, 'utf8');
    const ca = /certificate-authority-data: "([^"]+)"/.exec(adminConfig)?.[1] ?? '';
    const path = join(dir, `${name}.kubeconfig`);
    const yaml = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: capstan`,
      '  cluster:',
      `    server: ${JSON.stringify(capstan.url)}`,
      `    certificate-authority-data: ${JSON.stringify(ca)}`,
      'users:',
      `- name: ${name}`,
      '  user:',
      `    client-certificate-data: ${JSON.stringify(b64(cert.certPem))}`,
      `    client-key-data: ${JSON.stringify(b64(cert.keyPem))}`,
      'contexts:',
      '- name: capstan',
      '  context: { cluster: capstan, user: ' + name + ', namespace: default }',
      'current-context: capstan',
      '',
    ].join('\n');
    await writeFile(path, yaml, { mode: 0o600 });
    return kubectlSession(() => path);
  }

  before(async () => {
    await locateKubectl();
    dir = await mkdtemp(join(tmpdir(), 'capstan-e2e-certs-'));
    const caFile = join(dir, 'client-ca.crt');
    await writeFile(caFile, clientCA.caPem);
    const proxyCAFile = join(dir, 'front-proxy-ca.crt');
    await writeFile(proxyCAFile, proxyCA.caPem);
    capstan = await startCapstanProcess({
      args: [
        '--storage-backend=memory',
        `--client-ca-file=${caFile}`,
        '--authorization-mode=Node,RBAC',
        '--enable-admission-plugins=NodeRestriction',
        `--requestheader-client-ca-file=${proxyCAFile}`,
        '--requestheader-allowed-names=front-proxy',
        '--requestheader-username-headers=X-Remote-User',
        '--requestheader-group-headers=X-Remote-Group',
      ],
    });
  });
  after(async () => {
    await capstan.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('authenticates a certificate the client CA signed: kubectl auth whoami shows CN and O', async () => {
    const jane = await certSession('jane', clientCA.issueClient('jane', ['devs', 'qa']));
    const rows = tableRows(await jane.ok(['auth', 'whoami']));
    assert.deepEqual(rows[1], ['Username', 'jane']);
    assert.deepEqual(rows[2], ['Groups', '[devs', 'qa', 'system:authenticated]']);
    assert.equal(
      await jane.fails(['get', 'pods']),
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
  });

  it('answers a certificate from another CA with 401', async () => {
    const mallory = await certSession('mallory', otherCA.issueClient('mallory', ['system:masters']));
    assert.equal(
      await mallory.fails(['get', 'pods']),
      'error: You must be logged in to the server (Unauthorized)\n',
    );
    // Each request that presented a certificate counts its remaining lifetime (under a day, the
    // test CA's), refused ones included, as kube's apiserver_client_certificate_expiration_seconds.
    const metrics = (await admin.ok(['get', '--raw', '/metrics'])).split('\n');
    const value = (name: string): number =>
      Number(metrics.find((l) => l.startsWith(`${name} `))?.split(' ')[1]);
    const count = value('apiserver_client_certificate_expiration_seconds_count');
    assert.ok(count >= 2, String(count));
    assert.equal(value('apiserver_client_certificate_expiration_seconds_bucket{le="86400"}'), count);
    assert.equal(value('apiserver_client_certificate_expiration_seconds_bucket{le="43200"}'), 0);
  });

  it('impersonates with --as as RBAC allows, and kubectl auth can-i --as answers for the user', async () => {
    assert.equal(
      await admin.fails(['--as=jane', 'get', 'pods']),
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
    assert.equal((await admin.kubectl(['auth', 'can-i', 'list', 'pods', '--as=jane'])).stdout, 'no\n');
    await admin.ok(['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods']);
    await admin.ok(['create', 'rolebinding', 'jane-reads', '--role=pod-reader', '--user=jane']);
    await admin.ok([
      'create',
      'clusterrole',
      'impersonate-devs',
      '--verb=impersonate',
      '--resource=groups',
      '--resource-name=devs',
    ]);
    await admin.ok([
      'create',
      'clusterrolebinding',
      'jane-impersonates',
      '--clusterrole=impersonate-devs',
      '--user=jane',
    ]);
    // RBAC's index follows its watch: wait until the grant shows.
    const deadline = Date.now() + 10_000;
    let answer = '';
    while (answer !== 'yes\n' && Date.now() < deadline)
      answer = (await admin.kubectl(['auth', 'can-i', 'list', 'pods', '--as=jane'])).stdout;
    assert.equal(answer, 'yes\n');
    const result = await admin.kubectl(['--as=jane', 'get', 'pods']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, 'No resources found in default namespace.\n');

    const whoami = tableRows(await admin.ok(['auth', 'whoami', '--as=jane', '--as-group=devs']));
    assert.deepEqual(whoami[1], ['Username', 'jane']);
    assert.deepEqual(whoami[2], ['Groups', '[devs', 'system:authenticated]']);
  });

  it('refuses impersonation RBAC does not grant, with kube text', async () => {
    const jane = await certSession('jane2', clientCA.issueClient('jane', ['devs']));
    assert.equal(
      await jane.fails(['--as=bob', 'get', 'pods']),
      'Error from server (Forbidden): users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope\n',
    );
  });

  it('takes the user a front proxy names in its headers (request-header authentication)', async () => {
    const proxy = proxyCA.issueClient('front-proxy');
    const adminConfig = await readFile(capstan.kubeconfigPath, 'utf8');
    const ca = Buffer.from(/certificate-authority-data: "([^"]+)"/.exec(adminConfig)?.[1] ?? '', 'base64');
    const review = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    const body = await new Promise<string>((resolve, reject) => {
      request(
        `${capstan.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
        {
          method: 'POST',
          ca,
          cert: proxy.certPem,
          key: proxy.keyPem,
          headers: { 'content-type': 'application/json', 'x-remote-user': 'alice', 'x-remote-group': 'devs' },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => {
            resolve(text);
          });
        },
      )
        .on('error', reject)
        .end(review);
    });
    const { status } = JSON.parse(body) as { status?: { userInfo?: unknown } };
    assert.deepEqual(status?.userInfo, { username: 'alice', groups: ['devs', 'system:authenticated'] });
  });

  it("limits a kubelet's certificate to its own pods' secrets and its own Node", async () => {
    const node = (name: string): string =>
      JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
    await admin.ok(['create', '-f', '-'], node('node-a'));
    await admin.ok(['create', '-f', '-'], node('node-b'));
    await admin.ok(['create', 'secret', 'generic', 'node-a-secret', '--from-literal=k=v']);
    await admin.ok(['create', 'secret', 'generic', 'other-secret', '--from-literal=k=v']);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'on-node-a' },
      spec: {
        nodeName: 'node-a',
        containers: [{ name: 'c', image: 'busybox' }],
        volumes: [{ name: 's', secret: { secretName: 'node-a-secret' } }],
      },
    };
    await admin.ok(['create', '-f', '-'], JSON.stringify(pod));
    const kubelet = await certSession(
      'kubelet-a',
      clientCA.issueClient('system:node:node-a', ['system:nodes']),
    );
    // The Node authorizer's graph follows its pod watch: wait until the pod's secret is readable.
    const deadline = Date.now() + 10_000;
    let read = await kubelet.kubectl(['get', 'secret', 'node-a-secret', '-o', 'name']);
    while (read.code !== 0 && Date.now() < deadline)
      read = await kubelet.kubectl(['get', 'secret', 'node-a-secret', '-o', 'name']);
    assert.equal(read.stdout, 'secret/node-a-secret\n', read.stderr);
    assert.equal(
      await kubelet.fails(['get', 'secret', 'other-secret']),
      'Error from server (Forbidden): secrets "other-secret" is forbidden: User "system:node:node-a" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'node-a\' and this object\n',
    );
    // kubectl patch would read node-b first (refused by the authorizer); a raw PUT reaches admission.
    assert.equal(
      await kubelet.fails(['get', 'node', 'node-b']),
      'Error from server (Forbidden): nodes "node-b" is forbidden: User "system:node:node-a" cannot get resource "nodes" in API group "" at the cluster scope: node \'node-a\' cannot read \'node-b\', only its own Node object\n',
    );
    const update = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-b', labels: { x: 'y' } },
    });
    assert.equal(
      await kubelet.fails(['replace', '--raw', '/api/v1/nodes/node-b', '-f', '-'], update),
      'Error from server (Forbidden): nodes "node-b" is forbidden: node "node-a" is not allowed to modify node "node-b"\n',
    );
    await kubelet.ok(['label', 'node', 'node-a', 'x=y']);
  });
});
