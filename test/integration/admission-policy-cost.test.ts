// kube's runtime cost limits on admission expressions over HTTP: a ValidatingAdmissionPolicy whose
// expression is quadratic in a ConfigMap's keys denies a large ConfigMap at the per-call limit (kube's
// `operation cancelled: actual cost limit exceeded`) instead of holding the server for minutes, and
// stores nothing; the same policy admits a small one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { adminToken, call, type Reply } from './support/https-call.js';
import { waitFor } from './support/wait-for.js';

describe('admission expressions: runtime cost', () => {
  let server: CapstanServer;
  const admin = (method: string, path: string, body?: unknown): Promise<Reply> =>
    call(server, { method, path, token: adminToken(server), ...(body === undefined ? {} : { body }) });
  const configMap = (name: string, keys: number): unknown => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, 'v'])),
  });

  before(async () => {
    server = await startCapstan({ storage: 'memory' });
  });
  after(async () => {
    await server.stop();
  });

  it('a quadratic policy expression is cut off at kube’s per-call cost limit', async () => {
    const base = '/apis/admissionregistration.k8s.io/v1';
    const expression = 'object.data.all(k, object.data.all(j, k == j || k != j))';
    const policy = await admin('POST', `${base}/validatingadmissionpolicies`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'pairs' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
          ],
        },
        validations: [{ expression }, { expression: "object.metadata.name != 'probe'", message: 'probe' }],
      },
    });
    assert.equal(policy.status, 201, policy.body);
    const binding = await admin('POST', `${base}/validatingadmissionpolicybindings`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'pairs' },
      spec: { policyName: 'pairs', validationActions: ['Deny'] },
    });
    assert.equal(binding.status, 201, binding.body);
    const path = '/api/v1/namespaces/default/configmaps';
    await waitFor(
      'the policy in force',
      () => admin('POST', `${path}?dryRun=All`, configMap('probe', 1)),
      (r) => r.status === 422,
    );
    const small = await admin('POST', path, configMap('small', 30));
    assert.equal(small.status, 201, small.body);
    // 3,000 keys: 9,000,000 inner iterations, several seconds of evaluation without the limit.
    const big = await admin('POST', path, configMap('big', 3000));
    assert.equal(big.status, 422, big.body);
    assert.equal(
      big.json['message'],
      `configmaps "big" is forbidden: ValidatingAdmissionPolicy 'pairs' with binding 'pairs' denied request: expression '${expression}' resulted in error: operation cancelled: actual cost limit exceeded`,
    );
    assert.equal((await admin('GET', `${path}/big`)).status, 404);
  });
});
