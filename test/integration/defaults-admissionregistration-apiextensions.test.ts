// The defaulting functions of admissionregistration.k8s.io/v1 (pkg/apis/admissionregistration/v1/
// defaults.go) and apiextensions.k8s.io/v1 (apiextensions-apiserver/pkg/apis/apiextensions/v1/
// defaults.go), one test each (docs/defaults-checklist.md): the value a body reads back with, on a
// create, a PUT and a protobuf body, and the request's manager owning it, as kube's decoder adds it
// before the field manager runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import {
  assertOwns,
  at,
  DefaultsClient,
  fieldsAt,
  owned,
  type JSONObject,
} from './support/defaults-calls.js';

let server: CapstanServer;
const client = new DefaultsClient(() => server);

const ar = '/apis/admissionregistration.k8s.io/v1';
const arVersion = 'admissionregistration.k8s.io/v1';
// Rules on a resource nothing here creates: the webhooks are never called.
const rule = {
  operations: ['CREATE'],
  apiGroups: ['example.com'],
  apiVersions: ['v1'],
  resources: ['widgets'],
};

const hook = (name: string, extra: JSONObject = {}): JSONObject => ({
  name,
  clientConfig: { service: { namespace: 'system', name: 'webhook', path: '/check' } },
  rules: [rule],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});

const configuration = (kind: string, name: string, webhooks: JSONObject[]): JSONObject => ({
  apiVersion: arVersion,
  kind,
  metadata: { name },
  webhooks,
});

const hookFields = (obj: JSONObject, manager: string, name: string) =>
  fieldsAt(owned(obj, manager), 'f:webhooks', `k:{"name":"${name}"}`);

const webhookDefaults = [
  'failurePolicy',
  'matchPolicy',
  'namespaceSelector',
  'objectSelector',
  'timeoutSeconds',
];

function assertWebhookDefaults(h: unknown): void {
  assert.equal(at(h, 'failurePolicy'), 'Fail');
  assert.equal(at(h, 'matchPolicy'), 'Equivalent');
  assert.deepEqual(at(h, 'namespaceSelector'), {});
  assert.deepEqual(at(h, 'objectSelector'), {});
  assert.equal(at(h, 'timeoutSeconds'), 10);
  assert.equal(at(h, 'clientConfig', 'service', 'port'), 443, 'SetDefaults_ServiceReference');
  assert.equal(at(h, 'rules', 0, 'scope'), '*', 'SetDefaults_Rule');
}

describe('admissionregistration.k8s.io/v1 and apiextensions.k8s.io/v1 defaults', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  it('SetDefaults_ValidatingWebhook, _ServiceReference and _Rule: a create', async () => {
    const out = await client.create(
      `${ar}/validatingwebhookconfigurations`,
      configuration('ValidatingWebhookConfiguration', 'v-create', [hook('a.example.com')]),
      'creator',
    );
    const h = at(out, 'webhooks', 0);
    assertWebhookDefaults(h);
    assert.equal(at(h, 'reinvocationPolicy'), undefined, 'a validating webhook has no reinvocationPolicy');
    const fields = hookFields(out, 'creator', 'a.example.com');
    assertOwns(fields, webhookDefaults, 'SetDefaults_ValidatingWebhook');
    assertOwns(fieldsAt(fields, 'f:clientConfig', 'f:service'), ['port'], 'SetDefaults_ServiceReference');
  });

  it('SetDefaults_ValidatingWebhook, _ServiceReference and _Rule: a PUT that leaves them out', async () => {
    const path = `${ar}/validatingwebhookconfigurations`;
    const explicit = hook('a.example.com', {
      clientConfig: { service: { namespace: 'system', name: 'webhook', port: 8443 } },
      rules: [{ ...rule, scope: 'Cluster' }],
      failurePolicy: 'Ignore',
      matchPolicy: 'Exact',
      namespaceSelector: { matchLabels: { a: 'b' } },
      objectSelector: { matchLabels: { c: 'd' } },
      timeoutSeconds: 5,
    });
    const created = await client.create(
      path,
      configuration('ValidatingWebhookConfiguration', 'v-put', [explicit]),
      'creator',
    );
    assert.equal(at(created, 'webhooks', 0, 'timeoutSeconds'), 5);
    const body = configuration('ValidatingWebhookConfiguration', 'v-put', [hook('a.example.com')]);
    body['metadata'] = { name: 'v-put', resourceVersion: at(created, 'metadata', 'resourceVersion') };
    const replaced = await client.replace(`${path}/v-put`, body, 'putter');
    assertWebhookDefaults(at(replaced, 'webhooks', 0));
    assertOwns(hookFields(replaced, 'putter', 'a.example.com'), webhookDefaults, 'the PUT');
  });

  it('SetDefaults_ValidatingWebhook, _ServiceReference and _Rule: a protobuf body', async () => {
    const out = await client.createProtobuf(
      `${ar}/validatingwebhookconfigurations`,
      'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration',
      configuration('ValidatingWebhookConfiguration', 'v-proto', [hook('a.example.com')]),
      'proto',
    );
    assertWebhookDefaults(at(out, 'webhooks', 0));
    assertOwns(hookFields(out, 'proto', 'a.example.com'), webhookDefaults, 'the protobuf body');
  });

  it('SetDefaults_MutatingWebhook: the same, and reinvocationPolicy Never', async () => {
    const out = await client.create(
      `${ar}/mutatingwebhookconfigurations`,
      configuration('MutatingWebhookConfiguration', 'm-create', [hook('m.example.com')]),
      'creator',
    );
    const h = at(out, 'webhooks', 0);
    assertWebhookDefaults(h);
    assert.equal(at(h, 'reinvocationPolicy'), 'Never');
    const fields = hookFields(out, 'creator', 'm.example.com');
    assertOwns(fields, [...webhookDefaults, 'reinvocationPolicy'], 'SetDefaults_MutatingWebhook');
    assertOwns(fieldsAt(fields, 'f:clientConfig', 'f:service'), ['port'], 'SetDefaults_ServiceReference');
  });

  it('SetDefaults_MutatingWebhook: a webhook a strategic merge patch adds', async () => {
    const path = `${ar}/mutatingwebhookconfigurations`;
    await client.create(
      path,
      configuration('MutatingWebhookConfiguration', 'm-patch', [hook('first.example.com')]),
      'creator',
    );
    const out = await client.patch(
      `${path}/m-patch`,
      { webhooks: [hook('second.example.com')] },
      'application/strategic-merge-patch+json',
      'patcher',
    );
    const second = (out['webhooks'] as JSONObject[]).find((h) => h['name'] === 'second.example.com');
    assertWebhookDefaults(second);
    assert.equal(at(second, 'reinvocationPolicy'), 'Never');
    assertOwns(
      hookFields(out, 'patcher', 'second.example.com'),
      [...webhookDefaults, 'reinvocationPolicy'],
      'the patch',
    );
  });

  it('SetDefaults_ValidatingAdmissionPolicySpec and _MatchResources: a policy', async () => {
    const policy = {
      apiVersion: arVersion,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'p' },
      spec: { matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'true' }] },
    };
    const out = await client.create(`${ar}/validatingadmissionpolicies`, policy, 'creator');
    assert.equal(at(out, 'spec', 'failurePolicy'), 'Fail');
    const match = at(out, 'spec', 'matchConstraints');
    assert.equal(at(match, 'matchPolicy'), 'Equivalent');
    assert.deepEqual(at(match, 'namespaceSelector'), {});
    assert.deepEqual(at(match, 'objectSelector'), {});
    assert.equal(at(match, 'resourceRules', 0, 'scope'), '*', 'SetDefaults_Rule');
    // MatchResources is an atomic struct: its manager owns it whole.
    assertOwns(fieldsAt(owned(out, 'creator'), 'f:spec'), ['failurePolicy', 'matchConstraints'], 'the spec');
  });

  it("SetDefaults_MatchResources: a binding's matchResources, only when it has one", async () => {
    const binding = (name: string, spec: JSONObject): JSONObject => ({
      apiVersion: arVersion,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: { policyName: 'p', validationActions: ['Deny'], ...spec },
    });
    const path = `${ar}/validatingadmissionpolicybindings`;
    const out = await client.create(path, binding('b', { matchResources: {} }), 'creator');
    assert.deepEqual(at(out, 'spec', 'matchResources'), {
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
    });
    const bare = await client.create(path, binding('bare', {}), 'creator');
    assert.equal(at(bare, 'spec', 'matchResources'), undefined);
  });

  const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  const crd = (plural: string, kind: string, extra: JSONObject = {}): JSONObject => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.defaults.example.com` },
    spec: {
      group: 'defaults.example.com',
      scope: 'Namespaced',
      names: { plural, kind },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
      ...extra,
    },
  });

  it('SetDefaults_CustomResourceDefinitionSpec: singular, listKind and conversion None', async () => {
    const out = await client.create(crds, crd('gadgets', 'Gadget'), 'creator');
    assert.equal(at(out, 'spec', 'names', 'singular'), 'gadget');
    assert.equal(at(out, 'spec', 'names', 'listKind'), 'GadgetList');
    assert.deepEqual(at(out, 'spec', 'conversion'), { strategy: 'None' });
    const spec = fieldsAt(owned(out, 'creator'), 'f:spec');
    assertOwns(fieldsAt(spec, 'f:names'), ['singular', 'listKind'], 'names');
    assertOwns(fieldsAt(spec, 'f:conversion'), ['strategy'], 'conversion');
    // The decoder's storedVersions are the status's, which the main resource resets: no one's.
    assert.deepEqual(at(out, 'status', 'storedVersions'), ['v1']);
    assert.equal(owned(out, 'creator')['f:status'], undefined);
  });

  it("SetDefaults_ServiceReference: a conversion webhook's port 443", async () => {
    const conversion = {
      strategy: 'Webhook',
      webhook: {
        clientConfig: { service: { namespace: 'system', name: 'convert' } },
        conversionReviewVersions: ['v1'],
      },
    };
    const out = await client.create(crds, crd('gizmos', 'Gizmo', { conversion }), 'creator');
    const service = ['spec', 'conversion', 'webhook', 'clientConfig', 'service'];
    assert.equal(at(out, ...service, 'port'), 443);
    assertOwns(fieldsAt(owned(out, 'creator'), ...service.map((s) => `f:${s}`)), ['port'], 'the port');
  });

  it('SetDefaults_CustomResourceDefinition: a /status body without storedVersions gets the storage version', async () => {
    const current = await client.get(`${crds}/gadgets.defaults.example.com`);
    const status = { ...(current['status'] as JSONObject) };
    delete status['storedVersions'];
    const out = await client.replace(
      `${crds}/gadgets.defaults.example.com/status`,
      { ...current, status },
      'status-writer',
    );
    assert.deepEqual(at(out, 'status', 'storedVersions'), ['v1']);
  });
});
