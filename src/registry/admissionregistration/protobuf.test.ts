// The admissionregistration.k8s.io/v1 kinds decode from the protobuf gogo writes (field numbers of
// k8s.io/api/admissionregistration/v1/types.go), including the embedded Rule inside
// RuleWithOperations inside NamedRuleWithOperations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { ProtobufDecoder } from '../../machinery/protobuf/index.js';
import { pb } from '../../machinery/protobuf/testing/proto-writer.js';

const decoder = new ProtobufDecoder(builtinScheme());
const def = (name: string): string => `io.k8s.api.admissionregistration.v1.${name}`;

/** RuleWithOperations{operations: [CREATE], Rule{apiGroups: [apps], apiVersions: [v1], resources: [deployments]}}. */
const ruleWithOperations = (): ReturnType<typeof pb> =>
  pb()
    .string(1, 'CREATE')
    .message(2, pb().string(1, 'apps').string(2, 'v1').string(3, 'deployments').string(4, '*'));

test('a ValidatingWebhookConfiguration: client config, inlined rule, pointers', () => {
  const hook = pb()
    .string(1, 'pods.example.com')
    .message(2, pb().message(1, pb().string(1, 'system').string(2, 'hook').varint(4, 8443)))
    .message(3, ruleWithOperations())
    .string(4, 'Ignore')
    .string(6, 'None')
    .varint(7, 5)
    .string(8, 'v1');
  const raw = pb().message(1, pb().string(1, 'cfg')).message(2, hook);
  assert.deepEqual(decoder.toJSON(def('ValidatingWebhookConfiguration'), raw.finish()), {
    metadata: { name: 'cfg' },
    webhooks: [
      {
        name: 'pods.example.com',
        clientConfig: { service: { namespace: 'system', name: 'hook', port: 8443 } },
        rules: [
          {
            operations: ['CREATE'],
            apiGroups: ['apps'],
            apiVersions: ['v1'],
            resources: ['deployments'],
            scope: '*',
          },
        ],
        failurePolicy: 'Ignore',
        sideEffects: 'None',
        timeoutSeconds: 5,
        admissionReviewVersions: ['v1'],
      },
    ],
  });
});

test('a ValidatingAdmissionPolicy: match constraints with a named rule two embeddings deep', () => {
  const named = pb().string(1, 'web').message(2, ruleWithOperations());
  const spec = pb()
    .message(1, pb().string(1, 'v1').string(2, 'ConfigMap'))
    .message(2, pb().message(3, named).string(7, 'Exact'))
    .message(3, pb().string(1, 'object.spec.replicas <= 5').string(3, 'Invalid'))
    .string(4, 'Fail');
  const raw = pb().message(1, pb().string(1, 'p')).message(2, spec);
  assert.deepEqual(decoder.toJSON(def('ValidatingAdmissionPolicy'), raw.finish()), {
    metadata: { name: 'p' },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        resourceRules: [
          {
            resourceNames: ['web'],
            operations: ['CREATE'],
            apiGroups: ['apps'],
            apiVersions: ['v1'],
            resources: ['deployments'],
            scope: '*',
          },
        ],
        matchPolicy: 'Exact',
      },
      validations: [{ expression: 'object.spec.replicas <= 5', reason: 'Invalid' }],
      failurePolicy: 'Fail',
    },
  });
});
