// PodSecurity over HTTP: a namespace labelled enforce=baseline refuses a privileged pod with kube's
// 403; one labelled warn=restricted admits a plain pod with kube's Warning header; one labelled
// enforce=restricted admits a pod that sets what restricted asks and refuses a plain one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

interface Reply {
  status: number;
  body: Record<string, unknown>;
  warning: string | null;
}

async function call(
  server: CapstanServer,
  path: string,
  body: unknown,
  method: 'POST' | 'PATCH' = 'POST',
): Promise<Reply> {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const contentType = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    warning: res.headers.get('warning'),
  };
}

const namespace = (name: string, labels: Record<string, string>): unknown => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels },
});

const pod = (name: string, securityContext?: Record<string, unknown>): unknown => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: {
    containers: [
      { name: 'app', image: 'nginx', ...(securityContext === undefined ? {} : { securityContext }) },
    ],
  },
});

test('PodSecurity enforces and warns from namespace labels', async () => {
  const server = await startCapstan({ storage: 'memory', scheme: 'http' });
  try {
    const base = await call(
      server,
      '/api/v1/namespaces',
      namespace('base', { 'pod-security.kubernetes.io/enforce': 'baseline' }),
    );
    assert.equal(base.status, 201, JSON.stringify(base.body));
    const refused = await call(server, '/api/v1/namespaces/base/pods', pod('x', { privileged: true }));
    assert.equal(refused.status, 403);
    assert.equal(
      refused.body.message,
      'pods "x" is forbidden: violates PodSecurity "baseline:latest": privileged (container "app" must not set securityContext.privileged=true)',
    );
    const plain = await call(server, '/api/v1/namespaces/base/pods', pod('y'));
    assert.equal(plain.status, 201, JSON.stringify(plain.body));

    const warned = await call(
      server,
      '/api/v1/namespaces',
      namespace('warned', { 'pod-security.kubernetes.io/warn': 'restricted' }),
    );
    assert.equal(warned.status, 201, JSON.stringify(warned.body));
    const admitted = await call(server, '/api/v1/namespaces/warned/pods', pod('z'));
    assert.equal(admitted.status, 201, JSON.stringify(admitted.body));
    // The Warning header carries the text as an RFC 7234 quoted string.
    const text =
      'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
    assert.equal(admitted.warning, `299 - "${text.replaceAll('"', '\\"')}"`);

    // A pod that meets restricted passes its enforcement, through the security fields it sets.
    const strict = await call(
      server,
      '/api/v1/namespaces',
      namespace('strict', { 'pod-security.kubernetes.io/enforce': 'restricted' }),
    );
    assert.equal(strict.status, 201, JSON.stringify(strict.body));
    const compliant = await call(
      server,
      '/api/v1/namespaces/strict/pods',
      pod('ok', {
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      }),
    );
    assert.equal(compliant.status, 201, JSON.stringify(compliant.body));
    assert.equal(compliant.warning, null);
    const loose = await call(server, '/api/v1/namespaces/strict/pods', pod('loose'));
    assert.equal(loose.status, 403);

    const invalid = await call(
      server,
      '/api/v1/namespaces',
      namespace('bad', { 'pod-security.kubernetes.io/enforce': 'strict' }),
    );
    assert.equal(invalid.status, 422);
    assert.equal(
      invalid.body.message,
      'Namespace "bad" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
  } finally {
    await server.stop();
  }
});

test('a namespace relabelled changes the policy its next pods meet', async () => {
  const server = await startCapstan({ storage: 'memory', scheme: 'http' });
  try {
    const enforce = (level: string): unknown => ({
      metadata: { labels: { 'pod-security.kubernetes.io/enforce': level } },
    });
    const created = await call(server, '/api/v1/namespaces', namespace('relabel', {}));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    let n = 0;
    const privileged = (): Promise<Reply> =>
      call(server, '/api/v1/namespaces/relabel/pods', pod(`p${++n}`, { privileged: true }));
    assert.equal((await privileged()).status, 201);
    const baseline = await call(server, '/api/v1/namespaces/relabel', enforce('baseline'), 'PATCH');
    assert.equal(baseline.status, 200, JSON.stringify(baseline.body));
    // Admission reads namespaces from the watch cache, which follows the patch within moments.
    await waitFor('the baseline policy', privileged, (r) => r.status === 403);
    const back = await call(server, '/api/v1/namespaces/relabel', enforce('privileged'), 'PATCH');
    assert.equal(back.status, 200, JSON.stringify(back.body));
    await waitFor('the privileged policy', privileged, (r) => r.status === 201);
  } finally {
    await server.stop();
  }
});
