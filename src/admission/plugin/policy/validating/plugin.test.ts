// The plugin over real in-memory stores: policies and bindings are read through their watch, params
// from ConfigMaps, and each request gets kube's decision texts, reasons and codes.
// test-batches: alone -- a test asserts that the process has not loaded the CEL library.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicyBindingSpec,
  ValidatingAdmissionPolicySpec,
} from '../../../../api/admissionregistration/v1/policy.js';
import type { KubeObject } from '../../../../api/meta.js';
import { isStatusError, type StatusError } from '../../../../machinery/errors/index.js';
import {
  newValidatingAdmissionPolicyBindingREST,
  newValidatingAdmissionPolicyREST,
} from '../../../../registry/admissionregistration/storage.js';
import { newConfigMapREST } from '../../../../registry/core/configmap/storage.js';
import { newNamespaceREST } from '../../../../registry/core/namespace/storage.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../../registry/generic/testing/memory-rest-options.js';
import { loadedCel } from '../../../../registry/apiextensions/customresource/cel/load.js';
import { testContext } from '../../../../registry/generic/testing/widgets.js';
import type { APIGroupInfo } from '../../../../registry/rest/api-group-info.js';
import type { Creater, GracefulDeleter, Getter, Updater } from '../../../../registry/rest/capabilities.js';
import type { Attributes } from '../../../attributes.js';
import { newValidatingAdmissionPolicyPlugin } from './factory.js';
import type { ValidatingAdmissionPolicyPlugin } from './plugin.js';

const deploymentAttributes = (replicas: number, over: Partial<Attributes> = {}): Attributes => ({
  operation: 'CREATE',
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  subresource: '',
  namespace: 'team-a',
  name: 'web',
  object: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'team-a', labels: { app: 'web' } },
    spec: { replicas },
  },
  oldObject: null,
  userInfo: { name: 'alice', groups: ['system:authenticated'] },
  dryRun: false,
  ...over,
});

const deploymentRules = [
  { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] },
];

function policy(name: string, spec: ValidatingAdmissionPolicySpec): ValidatingAdmissionPolicy {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec,
  };
}

function binding(name: string, spec: ValidatingAdmissionPolicyBindingSpec): ValidatingAdmissionPolicyBinding {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec,
  };
}

/** Resolves once `check` stops throwing (the plugin's watch has caught up), within 5 s. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

async function denial(plugin: ValidatingAdmissionPolicyPlugin, a: Attributes): Promise<StatusError> {
  try {
    await plugin.validate(testContext(a.namespace), a);
  } catch (err) {
    assert.ok(isStatusError(err), String(err));
    return err;
  }
  assert.fail('the request was admitted');
}

describe('ValidatingAdmissionPolicy plugin', () => {
  let rest: MemoryRESTOptions;
  let plugin: ValidatingAdmissionPolicyPlugin;
  let policies: Creater & Getter & GracefulDeleter & Updater;
  let bindings: Creater & GracefulDeleter;
  let configMaps: Creater;
  const audit: [string, string][] = [];

  const create = async (store: Creater, obj: KubeObject, namespace = ''): Promise<void> => {
    await store.create(testContext(namespace), obj, { options: {} });
  };
  const remove = async (store: GracefulDeleter, name: string): Promise<void> => {
    await store.delete(testContext(''), name, { options: {} });
  };

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    const vap = await newValidatingAdmissionPolicyREST(opts);
    const vapb = await newValidatingAdmissionPolicyBindingREST(opts);
    const namespaces = (await newNamespaceREST(opts)).namespaces;
    const cms = await newConfigMapREST(opts);
    const groups: APIGroupInfo[] = [
      {
        group: '',
        prioritizedVersions: ['v1'],
        versionedResourcesStorageMap: { v1: { namespaces, configmaps: cms } },
      },
      {
        // Only its kind is read, to type check policies against apps/v1 Deployment.
        group: 'apps',
        prioritizedVersions: ['v1'],
        versionedResourcesStorageMap: {
          v1: {
            deployments: {
              newObject: () => ({ apiVersion: 'apps/v1', kind: 'Deployment' }),
              destroy: () => undefined,
            },
          },
        },
      },
      {
        group: 'admissionregistration.k8s.io',
        prioritizedVersions: ['v1'],
        versionedResourcesStorageMap: {
          v1: {
            validatingadmissionpolicies: vap.policies,
            'validatingadmissionpolicies/status': vap.status,
            validatingadmissionpolicybindings: vapb,
          },
        },
      },
    ];
    const built = newValidatingAdmissionPolicyPlugin(groups, {
      onAuditAnnotation: (_ctx, key, value) => audit.push([key, value]),
    });
    assert.ok(built !== undefined);
    plugin = built;
    policies = vap.policies;
    bindings = vapb;
    configMaps = cms;
    await create(namespaces, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a', labels: { tier: 'gold' } },
    });
  });
  after(async () => {
    plugin.close();
    await rest.close();
  });

  it('admits at once while there is no policy, without loading the CEL library', async () => {
    await plugin.validate(testContext('team-a'), deploymentAttributes(50));
    assert.equal(loadedCel(), undefined);
  });

  it('refuses a Deployment over the replica limit its param ConfigMap sets, with kube’s text and 422', async () => {
    await create(
      configMaps,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits' }, data: { maxReplicas: '3' } },
      'team-a',
    );
    await create(
      policies,
      policy('replica-limit', {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { resourceRules: deploymentRules },
        validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)' }],
      }),
    );
    await create(
      bindings,
      binding('replica-limit-a', {
        policyName: 'replica-limit',
        paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' },
        validationActions: ['Deny'],
      }),
    );
    await eventually(async () => {
      const err = await denial(plugin, deploymentAttributes(5));
      const message =
        "ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-a' denied request: failed expression: object.spec.replicas <= int(params.data.maxReplicas)";
      assert.equal(err.code, 422);
      assert.equal(err.reason, 'Invalid');
      assert.equal(err.status.message, `deployments.apps "web" is forbidden: ${message}`);
      assert.deepEqual(err.status.details, {
        name: 'web',
        group: 'apps',
        kind: 'deployments',
        causes: [{ message }],
      });
    });
    await plugin.validate(testContext('team-a'), deploymentAttributes(3));
  });

  it('denies with "no params found" when the param is missing and the action is Deny', async () => {
    const err = await denial(plugin, deploymentAttributes(1, { namespace: 'team-b' }));
    assert.equal(
      err.status.message,
      "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-a' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
    await remove(bindings, 'replica-limit-a');
    await eventually(async () =>
      plugin.validate(testContext('team-b'), deploymentAttributes(1, { namespace: 'team-b' })),
    );
  });

  it('fails a policy whose paramKind is not served, per its failurePolicy', async () => {
    await create(
      policies,
      policy('bad-param', {
        paramKind: { apiVersion: 'example.com/v1', kind: 'BadParamKind' },
        matchConstraints: { resourceRules: deploymentRules },
        validations: [{ expression: 'true' }],
      }),
    );
    await create(
      bindings,
      binding('bad-param-b', {
        policyName: 'bad-param',
        paramRef: { name: 'x', parameterNotFoundAction: 'Allow' },
        validationActions: ['Deny'],
      }),
    );
    await eventually(async () => {
      const err = await denial(plugin, deploymentAttributes(1));
      assert.equal(
        err.status.message,
        "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'bad-param' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=BadParamKind'",
      );
    });
    await remove(bindings, 'bad-param-b');
    await eventually(async () => plugin.validate(testContext('team-a'), deploymentAttributes(1)));
  });

  it('takes the reason and code a validation names, and the message of its messageExpression', async () => {
    await create(
      policies,
      policy('named', {
        matchConstraints: { resourceRules: deploymentRules },
        variables: [{ name: 'want', expression: "'web-' + request.namespace" }],
        validations: [
          {
            expression: 'object.metadata.name == variables.want',
            reason: 'Forbidden',
            messageExpression: "'name must be ' + variables.want + ', not ' + object.metadata.name",
          },
        ],
      }),
    );
    await create(bindings, binding('named-b', { policyName: 'named', validationActions: ['Deny'] }));
    await eventually(async () => {
      const err = await denial(plugin, deploymentAttributes(1));
      assert.equal(err.code, 403);
      assert.equal(err.reason, 'Forbidden');
      assert.match(err.message, /denied request: name must be web-team-a, not web$/);
    });
    await remove(bindings, 'named-b');
    await eventually(async () => plugin.validate(testContext('team-a'), deploymentAttributes(1)));
  });

  it('Warn adds kube’s Warning text and Audit an audit annotation, and neither denies', async () => {
    await create(
      policies,
      policy('warn-audit', {
        matchConstraints: { resourceRules: deploymentRules },
        validations: [{ expression: 'object.spec.replicas < 2', message: 'too many replicas' }],
        auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
      }),
    );
    await create(
      bindings,
      binding('warn-audit-b', { policyName: 'warn-audit', validationActions: ['Warn', 'Audit'] }),
    );
    const ctx = testContext('team-a');
    await eventually(async () => {
      ctx.warnings.length = 0;
      audit.length = 0;
      await plugin.validate(ctx, deploymentAttributes(4));
      assert.deepEqual(ctx.warnings, [
        "Validation failed for ValidatingAdmissionPolicy 'warn-audit' with binding 'warn-audit-b': too many replicas",
      ]);
    });
    assert.deepEqual(audit, [
      [
        'validation.policy.admission.k8s.io/validation_failure',
        '[{"message":"too many replicas","policy":"warn-audit","binding":"warn-audit-b","expressionIndex":0,"validationActions":["Warn","Audit"]}]',
      ],
      ['warn-audit/replicas', '4'],
    ]);
    await remove(bindings, 'warn-audit-b');
  });

  it('applies failurePolicy to an expression that fails: Fail denies with the error, Ignore admits', async () => {
    await create(
      policies,
      policy('broken', {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: deploymentRules },
        validations: [
          { expression: 'object.spec.replica > 1' },
          { expression: "object.metadata.nam == 'x'" },
        ],
      }),
    );
    await create(bindings, binding('broken-b', { policyName: 'broken', validationActions: ['Deny'] }));
    await eventually(async () => {
      const err = await denial(plugin, deploymentAttributes(1));
      assert.equal(err.code, 422);
      assert.match(
        err.message,
        /'broken' with binding 'broken-b' denied request: expression 'object.spec.replica > 1' resulted in error: no such key: replica$/,
      );
    });
    // The status controller reports what type checking against apps/v1 Deployment finds.
    await eventually(async () => {
      await plugin.statusIdle();
      const stored = (await policies.get(testContext(''), 'broken', {})) as ValidatingAdmissionPolicy;
      const status = stored.status ?? {};
      assert.equal(status.observedGeneration, 1);
      const warnings = status.typeChecking?.expressionWarnings ?? [];
      assert.deepEqual(
        warnings.map((w) => w.fieldRef),
        ['spec.validations[0].expression', 'spec.validations[1].expression'],
      );
      assert.equal(
        warnings[0]?.warning,
        "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica > 1\n | ...........^\n",
      );
      assert.equal(
        warnings[1]?.warning,
        "apps/v1, Kind=Deployment: ERROR: <input>:1:16: undefined field 'nam'\n | object.metadata.nam == 'x'\n | ...............^\n",
      );
      assert.equal(status.conditions, undefined);
    });
    // A new generation is compiled and type checked again.
    await policies.update(testContext(''), 'broken', {
      options: {},
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_ctx, old) => {
          const next = structuredClone(old) as ValidatingAdmissionPolicy;
          next.spec = {
            ...next.spec,
            validations: [{ expression: 'object.spec.replicas > 1', message: 'one' }],
          };
          return Promise.resolve(next);
        },
      },
    });
    await eventually(async () => {
      const err = await denial(plugin, deploymentAttributes(1));
      assert.match(err.message, /'broken' with binding 'broken-b' denied request: one$/);
    });
    await eventually(async () => {
      await plugin.statusIdle();
      const stored = (await policies.get(testContext(''), 'broken', {})) as ValidatingAdmissionPolicy;
      assert.deepEqual(stored.status, { observedGeneration: 2, typeChecking: {} });
    });
    await remove(bindings, 'broken-b');
    await remove(policies, 'broken');
    await create(
      policies,
      policy('lenient', {
        failurePolicy: 'Ignore',
        matchConstraints: { resourceRules: deploymentRules },
        validations: [
          { expression: 'object.spec.replica > 1' },
          { expression: 'object.spec.replicas < 10', message: 'cap' },
        ],
      }),
    );
    await create(bindings, binding('lenient-b', { policyName: 'lenient', validationActions: ['Deny'] }));
    await eventually(async () => {
      const err = await denial(plugin, deploymentAttributes(20));
      assert.match(err.message, /'lenient' with binding 'lenient-b' denied request: cap$/);
    });
    await plugin.validate(testContext('team-a'), deploymentAttributes(1));
    await remove(bindings, 'lenient-b');
  });

  it('refuses to store a policy whose expression does not compile, as kube’s validation does', async () => {
    await assert.rejects(
      create(
        policies,
        policy('syntax', {
          failurePolicy: 'Fail',
          matchConstraints: { resourceRules: deploymentRules },
          validations: [
            { expression: 'object.spec.replicas >' },
            { expression: 'params.x', messageExpression: '1' },
          ],
        }),
      ),
      (err: unknown) => {
        assert.ok(isStatusError(err));
        assert.equal(err.code, 422);
        const causes = err.status.details?.causes ?? [];
        assert.deepEqual(
          causes.map((c) => c.field),
          [
            'spec.validations[0].expression',
            'spec.validations[1].expression',
            'spec.validations[1].messageExpression',
          ],
        );
        assert.match(
          causes[0]?.message ?? '',
          /^Invalid value: "object.spec.replicas >": compilation failed: ERROR: <input>:1:\d+: Syntax error/,
        );
        assert.match(
          causes[1]?.message ?? '',
          /compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'/,
        );
        assert.equal(causes[2]?.message, 'Invalid value: "1": must evaluate to string');
        return true;
      },
    );
  });

  it('skips a request a match condition, namespace selector or excluded rule leaves out', async () => {
    await create(
      policies,
      policy('deny-all', {
        failurePolicy: 'Ignore',
        matchConstraints: {
          resourceRules: deploymentRules,
          namespaceSelector: { matchLabels: { tier: 'gold' } },
          excludeResourceRules: [{ ...deploymentRules[0], resourceNames: ['excluded'] }],
        },
        matchConditions: [{ name: 'not-dry', expression: '!request.dryRun' }],
        validations: [{ expression: 'false', message: 'no' }],
      }),
    );
    await create(bindings, binding('deny-all-b', { policyName: 'deny-all', validationActions: ['Deny'] }));
    await eventually(async () => {
      const err = await denial(plugin, deploymentAttributes(1));
      assert.match(err.message, /'deny-all' with binding 'deny-all-b' denied request: no$/);
    });
    const admitted = [
      deploymentAttributes(1, { dryRun: true }),
      deploymentAttributes(1, { namespace: 'team-b' }),
      deploymentAttributes(1, { name: 'excluded' }),
      deploymentAttributes(1, { operation: 'DELETE', object: null }),
    ];
    for (const a of admitted) await plugin.validate(testContext(a.namespace), a);
    await remove(bindings, 'deny-all-b');
  });
});
