import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { cannotBeHandledMessage, decodeOutcome } from './outcome.js';
import { StructuralDecoder } from './decoder.js';

const scheme = builtinScheme();
const decoder = new StructuralDecoder(scheme);
const kind = (k: string) => {
  const info = scheme.kindFor('v1', k);
  if (info === undefined) throw new Error(k);
  return info;
};
const errorOf = (k: string, body: unknown): string | undefined =>
  decoder.decodeText(JSON.stringify(body), kind(k), { fieldValidation: 'Strict' }).error;

describe('type errors as kube reports them', () => {
  const cases: [string, string, unknown, string][] = [
    [
      'number into a map value',
      'ConfigMap',
      { data: { a: 1 } },
      'json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    ],
    [
      'string where a struct is expected',
      'ConfigMap',
      { metadata: 'x' },
      'json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta',
    ],
    [
      'array where a map is expected',
      'ConfigMap',
      { data: ['a'] },
      'json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string',
    ],
    [
      'object where a string is expected',
      'ConfigMap',
      { metadata: { name: { a: 1 } } },
      'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.name of type string',
    ],
    [
      'bool where a string is expected',
      'ConfigMap',
      { kind: 'ConfigMap', metadata: { namespace: true } },
      'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.namespace of type string',
    ],
    [
      'number where a bool is expected',
      'ConfigMap',
      { immutable: 1 },
      'json: cannot unmarshal number into Go struct field ConfigMap.immutable of type bool',
    ],
    [
      'string where a bool is expected',
      'ConfigMap',
      { immutable: 'true' },
      'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool',
    ],
    [
      'fraction into int64',
      'ConfigMap',
      { metadata: { generation: 1.5 } },
      'json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.metadata.generation of type int64',
    ],
    [
      'string into int64',
      'ConfigMap',
      { metadata: { generation: '1' } },
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64',
    ],
    [
      'int32 overflow',
      'Status',
      { code: 3000000000 },
      'json: cannot unmarshal number 3000000000 into Go struct field Status.code of type int32',
    ],
    [
      'object into a list',
      'ConfigMap',
      { metadata: { finalizers: {} } },
      'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.finalizers of type []string',
    ],
    [
      'string into a list',
      'ConfigMap',
      { metadata: { finalizers: 'a' } },
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string',
    ],
    [
      'list element',
      'ConfigMap',
      { metadata: { finalizers: ['a', 2] } },
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.finalizers of type string',
    ],
    [
      'struct in a list',
      'ConfigMap',
      { metadata: { ownerReferences: [{ uid: 5 }] } },
      'json: cannot unmarshal number into Go struct field OwnerReference.metadata.ownerReferences.uid of type types.UID',
    ],
    [
      'named string type',
      'Secret',
      { type: 7 },
      'json: cannot unmarshal number into Go struct field Secret.type of type v1.SecretType',
    ],
    [
      'named list element',
      'Namespace',
      { spec: { finalizers: [1] } },
      'json: cannot unmarshal number into Go struct field NamespaceSpec.spec.finalizers of type v1.FinalizerName',
    ],
    [
      'nested struct in a list',
      'Namespace',
      { status: { conditions: [{ type: 'X', status: 'True', reason: 1 }] } },
      'json: cannot unmarshal number into Go struct field NamespaceCondition.status.conditions.reason of type string',
    ],
    [
      'number into []byte',
      'Secret',
      { data: { a: 1 } },
      'json: cannot unmarshal number into Go struct field Secret.data of type []uint8',
    ],
    ['bad base64', 'Secret', { data: { a: 'not base64!' } }, 'illegal base64 data at input byte 3'],
    [
      'time of the wrong type',
      'ConfigMap',
      { metadata: { creationTimestamp: 5 } },
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
    ],
    [
      'time that does not parse',
      'ConfigMap',
      { metadata: { creationTimestamp: 'yesterday' } },
      'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    ],
    [
      'time in a list',
      'ConfigMap',
      { metadata: { managedFields: [{ time: [] }] } },
      'json: cannot unmarshal array into Go struct field ManagedFieldsEntry.metadata.managedFields.time of type string',
    ],
  ];
  for (const [name, k, body, message] of cases) {
    it(name, () => {
      assert.equal(errorOf(k, body), message);
    });
  }

  it('reports the first error in document order', () => {
    assert.equal(
      errorOf('ConfigMap', { data: { a: 1 }, metadata: { name: 2 } }),
      'json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    );
  });

  it('lets an error of a custom decoder win over an earlier saved error', () => {
    assert.equal(
      errorOf('ConfigMap', { data: { a: 1 }, metadata: { creationTimestamp: 'x' } }),
      'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"',
    );
  });

  it('fails in every fieldValidation mode and drops strict errors', () => {
    const text = JSON.stringify({ bogus: 1, data: { a: 1 } });
    for (const mode of ['Ignore', 'Warn', 'Strict'] as const) {
      const result = decoder.decodeText(text, kind('ConfigMap'), { fieldValidation: mode });
      assert.equal(
        result.error,
        'json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
      );
      assert.deepEqual(decodeOutcome(result, mode), { error: result.error, warnings: [] });
    }
  });

  it('ignores values of unknown fields', () => {
    assert.equal(errorOf('ConfigMap', { bogus: { data: 1 } }), undefined);
  });

  it('accepts null anywhere', () => {
    assert.equal(
      errorOf('ConfigMap', { metadata: { name: null, labels: null }, data: { a: null }, immutable: null }),
      undefined,
    );
  });

  it('builds the BadRequest message around the error', () => {
    assert.equal(
      cannotBeHandledMessage({ kind: 'ConfigMap', version: 'v1' }, 'ConfigMap', 'json: x'),
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: x',
    );
  });
});
