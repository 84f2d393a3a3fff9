import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../api/admissionregistration/v1/policy.js';
import type {
  MutatingWebhookConfiguration,
  ValidatingWebhook,
  ValidatingWebhookConfiguration,
} from '../../api/admissionregistration/v1/webhook.js';
import type { Store } from '../generic/store.js';
import { rejectsWithStatus } from '../generic/testing/assert-status.js';
import { isStatusError } from '../../machinery/errors/index.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../generic/testing/memory-rest-options.js';
import { testContext } from '../generic/testing/widgets.js';
import type { StatusREST } from '../generic/status-rest.js';
import {
  newMutatingWebhookConfigurationREST,
  newValidatingAdmissionPolicyBindingREST,
  newValidatingAdmissionPolicyREST,
  newValidatingWebhookConfigurationREST,
} from './storage.js';

const apiVersion = 'admissionregistration.k8s.io/v1';
const ctx = testContext('');

const hook = (extra: Partial<ValidatingWebhook> = {}): ValidatingWebhook => ({
  name: 'pods.policy.example.com',
  clientConfig: { service: { namespace: 'system', name: 'webhook', path: '/validate' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});

const vwc = (name: string, webhooks: ValidatingWebhook[]): ValidatingWebhookConfiguration => ({
  apiVersion,
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name },
  webhooks,
});

describe('admissionregistration.k8s.io stores', () => {
  let env: MemoryRESTOptions;
  let validating: Store<ValidatingWebhookConfiguration>;
  let mutating: Store<MutatingWebhookConfiguration>;
  let policies: Store<ValidatingAdmissionPolicy>;
  let policyStatus: StatusREST<ValidatingAdmissionPolicy>;
  let bindings: Store<ValidatingAdmissionPolicyBinding>;
  before(async () => {
    env = await memoryRESTOptions();
    const opts = { restOptionsGetter: env.getter };
    validating = await newValidatingWebhookConfigurationREST(opts);
    mutating = await newMutatingWebhookConfigurationREST(opts);
    const p = await newValidatingAdmissionPolicyREST(opts);
    policies = p.policies;
    policyStatus = p.status;
    bindings = await newValidatingAdmissionPolicyBindingREST(opts);
  });
  after(() => env.close());

  it('stores a validating webhook configuration with the v1 defaults and prints NAME WEBHOOKS AGE', async () => {
    const out = await validating.create(ctx, vwc('pod-policy', [hook()]), { options: {} });
    const h = out.webhooks?.[0];
    assert.ok(h);
    assert.equal(h.failurePolicy, 'Fail');
    assert.equal(h.matchPolicy, 'Equivalent');
    assert.deepEqual(h.namespaceSelector, {});
    assert.deepEqual(h.objectSelector, {});
    assert.equal(h.timeoutSeconds, 10);
    assert.equal(h.clientConfig.service?.port, 443);
    assert.equal(h.rules?.[0]?.scope, '*');
    assert.equal(out.metadata?.generation, 1);
    assert.notEqual((await env.backend.get('/registry/validatingwebhookconfigurations/pod-policy')).kv, null);
    const table = validating.convertToTable(ctx, out, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Webhooks', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 2), ['pod-policy', 1]);
  });

  it('defaults reinvocationPolicy Never on mutating webhooks', async () => {
    const out = await mutating.create(
      ctx,
      { apiVersion, kind: 'MutatingWebhookConfiguration', metadata: { name: 'm' }, webhooks: [hook()] },
      { options: {} },
    );
    assert.equal(out.webhooks?.[0]?.reinvocationPolicy, 'Never');
  });

  it("refuses bad webhooks with kube's messages", async () => {
    await rejectsWithStatus(
      validating.create(
        ctx,
        vwc('bad', [
          hook({ name: 'short.name', clientConfig: {}, timeoutSeconds: 31 }),
          hook({ clientConfig: { url: 'http://user@example.com/x?a=b#frag' } }),
          hook({ sideEffects: 'Some', admissionReviewVersions: ['v2'] }),
        ]),
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ValidatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: [' +
          'webhooks[0].name: Invalid value: "short.name": should be a domain with at least three segments separated by dots, ' +
          'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds, ' +
          'webhooks[0].clientConfig: Required value: exactly one of url or service is required, ' +
          `webhooks[1].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path], ` +
          'webhooks[1].clientConfig.url: Invalid value: "user": user information is not permitted in the URL, ' +
          'webhooks[1].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL, ' +
          'webhooks[1].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL, ' +
          'webhooks[2].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun", ' +
          'webhooks[2].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1, ' +
          'webhooks[2].name: Duplicate value: "pods.policy.example.com"]',
      },
    );
  });

  it('refuses matchConditions that do not compile, as kube’s validation does', async () => {
    const conditions = (...expressions: string[]): Partial<ValidatingWebhook> => ({
      matchConditions: expressions.map((expression, i) => ({ name: `c${i}`, expression })),
    });
    await assert.rejects(
      validating.create(
        ctx,
        vwc('uncompiled', [hook(conditions('object.metadata.name ==', "'a' + 'b'", 'params.x'))]),
        { options: {} },
      ),
      (err: unknown) => {
        assert.ok(isStatusError(err));
        assert.equal(err.code, 422);
        const causes = err.status.details?.causes ?? [];
        assert.deepEqual(
          causes.map((c) => c.field),
          [0, 1, 2].map((i) => `webhooks[0].matchConditions[${i}].expression`),
        );
        assert.match(
          causes[0]?.message ?? '',
          /^Invalid value: "object.metadata.name ==": compilation failed: ERROR: <input>:1:\d+: Syntax error/,
        );
        assert.equal(causes[1]?.message, `Invalid value: "'a' + 'b'": must evaluate to bool`);
        assert.equal(
          causes[2]?.message,
          "Invalid value: \"params.x\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x\n | ^",
        );
        return true;
      },
    );
    const stored = await mutating.create(
      ctx,
      {
        apiVersion,
        kind: 'MutatingWebhookConfiguration',
        metadata: { name: 'conditioned' },
        webhooks: [
          hook(conditions("authorizer.group('').resource('pods').check('get').allowed() && object != null")),
        ],
      },
      { options: {} },
    );
    assert.equal(stored.webhooks?.[0]?.matchConditions?.length, 1);
  });

  it('requires sideEffects and admissionReviewVersions in v1 and checks the service and port', async () => {
    const h = hook({ clientConfig: { service: { namespace: '', name: 'svc', port: 0, path: 'x//y' } } });
    delete h.sideEffects;
    delete h.admissionReviewVersions;
    await rejectsWithStatus(validating.create(ctx, vwc('svc', [h]), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'ValidatingWebhookConfiguration.admissionregistration.k8s.io "svc" is invalid: [' +
        'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, ' +
        'webhooks[0].clientConfig.service.namespace: Required value: service namespace is required, ' +
        'webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive, ' +
        `webhooks[0].clientConfig.service.path: Invalid value: "x//y": must start with a '/', ` +
        // kube drops the first character before splitting, whatever it is.
        'webhooks[0].clientConfig.service.path: Invalid value: "x//y": segment[0] may not be empty, ' +
        'webhooks[0].clientConfig.service.path: Invalid value: "x//y": segment[1] may not be empty, ' +
        'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1]',
    });
  });

  it('checks rules: operations, wildcards, subresources and scope', async () => {
    const h = hook({
      rules: [
        {
          operations: ['CREATE', '*'],
          apiGroups: ['*', 'apps'],
          apiVersions: [],
          resources: ['pods/*', 'pods/status'],
          scope: 'Everywhere',
        },
        { operations: ['PATCH'], apiGroups: [''], apiVersions: ['v1'], resources: ['*', 'pods'] },
      ],
    });
    await rejectsWithStatus(validating.create(ctx, vwc('rules', [h]), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'ValidatingWebhookConfiguration.admissionregistration.k8s.io "rules" is invalid: [' +
        `webhooks[0].rules[0].operations: Invalid value: ["CREATE","*"]: if '*' is present, must not specify other operations, ` +
        `webhooks[0].rules[0].apiGroups: Invalid value: ["*","apps"]: if '*' is present, must not specify other API groups, ` +
        'webhooks[0].rules[0].apiVersions: Required value, ' +
        `webhooks[0].rules[0].resources[1]: Invalid value: "pods/status": if 'pods/*' is present, must not specify pods/status, ` +
        'webhooks[0].rules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced", ' +
        'webhooks[0].rules[1].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE", ' +
        `webhooks[0].rules[1].resources: Invalid value: ["*","pods"]: if '*' is present, must not specify other resources without subresources]`,
    });
  });

  it('stores a policy with defaults, keeps status apart and prints NAME VALIDATIONS PARAMKIND AGE', async () => {
    const policy: ValidatingAdmissionPolicy = {
      apiVersion,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'replicas-limit' },
      spec: {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['apps'],
              apiVersions: ['v1'],
              operations: ['CREATE', 'UPDATE'],
              resources: ['deployments'],
            },
          ],
        },
        validations: [{ expression: 'object.spec.replicas <= 5' }],
      },
      status: { observedGeneration: 9 },
    };
    const out = await policies.create(ctx, policy, { options: {} });
    const match = out.spec?.matchConstraints;
    assert.equal(out.spec?.failurePolicy, 'Fail');
    assert.ok(match);
    assert.equal(match.matchPolicy, 'Equivalent');
    assert.deepEqual(match.namespaceSelector, {});
    assert.equal(match.resourceRules?.[0]?.scope, '*');
    assert.deepEqual(out.status, {});
    const table = policies.convertToTable(ctx, out, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Validations', 'ParamKind', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 3), ['replicas-limit', 1, 'v1/ConfigMap']);
    const updated = await policyStatus.update(ctx, 'replicas-limit', {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_c, old) =>
          Promise.resolve({
            ...(old as ValidatingAdmissionPolicy),
            spec: {},
            status: { observedGeneration: 1 },
          }),
      },
      options: {},
    });
    assert.equal(updated.object.status?.observedGeneration, 1);
    assert.equal(updated.object.spec?.validations?.length, 1);
  });

  it("refuses policies without constraints or validations with kube's messages (CEL is not compiled)", async () => {
    await rejectsWithStatus(
      policies.create(
        ctx,
        {
          apiVersion,
          kind: 'ValidatingAdmissionPolicy',
          metadata: { name: 'empty' },
          spec: {
            paramKind: { apiVersion: 'a/b/c', kind: 'Config_Map' },
            variables: [{ name: 'in', expression: ' ' }],
          },
        },
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ValidatingAdmissionPolicy.admissionregistration.k8s.io "empty" is invalid: [' +
          'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c, ' +
          'spec.paramKind.kind: Invalid value: "Config_Map": may have mixed case, but should otherwise match: ' +
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), " +
          'spec.matchConstraints: Required value, ' +
          'spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier, ' +
          'spec.variables[0].expression: Required value: expression is not specified, ' +
          'spec.validations: Required value: validations or auditAnnotations must contain at least one item, ' +
          'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item]',
      },
    );
  });

  it('stores bindings, checks paramRef and actions, and prints NAME POLICYNAME PARAMREF AGE', async () => {
    const binding: ValidatingAdmissionPolicyBinding = {
      apiVersion,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'replicas-limit-binding' },
      spec: {
        policyName: 'replicas-limit',
        paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' },
        validationActions: ['Deny'],
      },
    };
    const out = await bindings.create(ctx, binding, { options: {} });
    const table = bindings.convertToTable(ctx, out, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'PolicyName', 'ParamRef', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 3), [
      'replicas-limit-binding',
      'replicas-limit',
      'default/limits',
    ]);
    await rejectsWithStatus(
      bindings.create(
        ctx,
        {
          apiVersion,
          kind: 'ValidatingAdmissionPolicyBinding',
          metadata: { name: 'b' },
          spec: { paramRef: { name: 'x', selector: {} }, validationActions: ['Deny', 'Warn'] },
        },
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: [' +
          'spec.policyName: Required value, ' +
          'spec.paramRef.name: Forbidden: name and selector are mutually exclusive, ' +
          'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive, ' +
          'spec.paramRef.parameterNotFoundAction: Required value, ' +
          'spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)]',
      },
    );
  });
});
