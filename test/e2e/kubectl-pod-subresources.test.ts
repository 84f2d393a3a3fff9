// The real kubectl against one Capstan process: the subresources a kubelet would serve answer
// clear Status errors (logs, exec), `kubectl debug` adds an ephemeral container, a pod is bound
// through pods/<name>/binding, `create token`
// issues a service account JWT that authenticates requests (across a restart too), and every new
// namespace gets its `default` ServiceAccount.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort, startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl, type KubectlResult } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';

const ns = 'e2e-subresources';

describe('kubectl against capstan: pod subresources, tokens and default service accounts', () => {
  let capstan: CapstanProcess;
  let dataDir: string;
  let port: number;
  const { kubectl, ok, fails } = kubectlSession(() => capstan.kubeconfigPath);
  const start = async (): Promise<void> => {
    capstan = await startCapstanProcess({ dataDir, port });
  };

  before(async () => {
    await locateKubectl();
    dataDir = await mkdtemp(join(tmpdir(), 'capstan-e2e-subresources-'));
    port = await freePort();
    await start();
    await ok(['create', 'namespace', ns]);
  });

  after(async () => {
    await capstan.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('gives a new namespace its default ServiceAccount', async () => {
    let out = '';
    for (let i = 0; i < 100 && !out.includes('default'); i++) {
      out = await ok(['get', 'serviceaccounts', '-n', ns]);
      if (!out.includes('default')) await delay(50);
    }
    assert.match(out, /^NAME\s+SECRETS\s+AGE\ndefault\s+0\s+\S+\n$/);
  });

  it('answers kubectl logs of a pod without a node with nothing, and exec with kube BadRequest', async () => {
    assert.equal(await ok(['run', 'web', '-n', ns, '--image=nginx:1.25']), 'pod/web created\n');
    // As kube: a pod not yet on a node has an empty log.
    assert.equal(await ok(['logs', 'web', '-n', ns]), '');
    assert.equal(
      await fails(['logs', 'web', '-n', ns, '-c', 'nope']),
      'error: container nope is not valid for pod web\n',
    );
    assert.match(await fails(['exec', 'web', '-n', ns, '--', 'ls']), /pod web does not have a host assigned/);
  });

  it('adds a debug container through pods/web/ephemeralcontainers (kubectl debug)', async () => {
    const r = await kubectl(['debug', 'web', '-n', ns, '--image=busybox:1.36', '--container=debugger']);
    assert.equal(r.code, 0, r.stderr);
    const ephemeral = JSON.parse(
      await ok(['get', 'pod', 'web', '-n', ns, '-o', 'jsonpath={.spec.ephemeralContainers}']),
    ) as { name: string; image: string }[];
    assert.deepEqual(
      ephemeral.map((c) => [c.name, c.image]),
      [['debugger', 'busybox:1.36']],
    );
    const path = `/api/v1/namespaces/${ns}/pods/web/ephemeralcontainers`;
    const pod = JSON.parse(await ok(['get', '--raw', path])) as {
      spec: { ephemeralContainers: { image: string }[] };
    };
    const [debugger_] = pod.spec.ephemeralContainers;
    assert.ok(debugger_ !== undefined);
    debugger_.image = 'alpine';
    const changed = await kubectl(['replace', '--raw', path, '-f', '-'], JSON.stringify(pod));
    assert.equal(changed.code, 1);
    assert.equal(
      changed.stderr,
      'The Pod "web" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be changed\n\n',
    );
  });

  it('binds the pod through pods/web/binding, then names the node that has no kubelet', async () => {
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'other' },
      target: { name: 'node-1' },
    };
    const path = `/api/v1/namespaces/${ns}/pods/web/binding`;
    const mismatch = await kubectl(['create', '--raw', path, '-f', '-'], JSON.stringify(binding));
    assert.equal(mismatch.code, 1);
    assert.equal(
      mismatch.stderr,
      'Error from server (BadRequest): name in URL does not match name in Binding object\n',
    );
    await ok(['create', '--raw', path, '-f', '-'], JSON.stringify({ ...binding, metadata: { name: 'web' } }));
    assert.equal(await ok(['get', 'pod', 'web', '-n', ns, '-o', 'jsonpath={.spec.nodeName}']), 'node-1');
    assert.equal(
      await fails(['logs', 'web', '-n', ns, '-c', 'web']),
      'Error from server (ServiceUnavailable): no kubelet is reachable for node "node-1"\n',
    );
  });

  it('creates a token that authenticates as the service account, also after a restart', async () => {
    const token = (await ok(['create', 'token', 'default', '-n', ns])).trim();
    const [, payload = ''] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    assert.equal(claims['sub'], `system:serviceaccount:${ns}:default`);
    assert.equal(claims['iss'], 'https://kubernetes.default.svc.cluster.local');
    assert.equal((claims['exp'] as number) - (claims['iat'] as number), 3600);
    const asToken = (t: string): Promise<KubectlResult> =>
      kubectl(['--token', t, 'get', '--raw', `/api/v1/namespaces/${ns}/configmaps`]);
    assert.equal((await asToken(token)).code, 0);
    // One character changed inside the signature: its last ones may hold bits base64 decoding drops,
    // so a change there can leave the signature's bytes as they were (1 run in ~256).
    const at = token.lastIndexOf('.') + 5;
    const forged = await asToken(
      `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`,
    );
    assert.equal(forged.code, 1);
    assert.match(forged.stderr, /Unauthorized/);
    assert.equal(
      await fails(['create', 'token', 'ghost', '-n', ns]),
      'error: failed to create token: serviceaccounts "ghost" not found\n',
    );
    await capstan.stop();
    await start();
    assert.equal((await asToken(token)).code, 0, 'the generated signing key is kept in the data dir');
  });
});
