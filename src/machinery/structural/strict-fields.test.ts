import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { decodeOutcome } from './outcome.js';
import { type FieldValidationDirective, StructuralDecoder } from './decoder.js';

const scheme = builtinScheme();
const decoder = new StructuralDecoder(scheme);
const configMap = scheme.kindFor('v1', 'ConfigMap');
const namespace = scheme.kindFor('v1', 'Namespace');
if (configMap === undefined || namespace === undefined) throw new Error('kinds missing');

const strict = (text: string, mode: FieldValidationDirective = 'Strict') =>
  decoder.decodeText(text, configMap, { fieldValidation: mode });

describe('unknown fields', () => {
  it('reports paths as kube does: nested, in lists, never inside maps', () => {
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'a',
        unknownMeta: 1,
        labels: { anyKey: 'fine' },
        ownerReferences: [{ uid: 'u' }, { uid: 'v', extra: true }],
      },
      data: { anything: 'goes' },
      spec: { deep: { deeper: 1 } },
    };
    assert.deepEqual(strict(JSON.stringify(body)).strictErrors, [
      'unknown field "metadata.unknownMeta"',
      'unknown field "metadata.ownerReferences[1].extra"',
      'unknown field "spec"',
    ]);
  });

  it('reports fields of list items in structs of structs', () => {
    const text = JSON.stringify({
      status: { conditions: [{ type: 'A', status: 'True', bogus: 1 }] },
      spec: { finalizers: [], x: 1 },
    });
    const result = decoder.decodeText(text, namespace, { fieldValidation: 'Strict' });
    assert.deepEqual(result.strictErrors, [
      'unknown field "status.conditions[0].bogus"',
      'unknown field "spec.x"',
    ]);
  });

  it('matches keys case-sensitively', () => {
    assert.deepEqual(strict('{"Data":{"a":"b"}}').strictErrors, ['unknown field "Data"']);
  });

  it('quotes paths with Go %q', () => {
    assert.deepEqual(strict('{"metadata":{"we\\"ird\\n":1}}').strictErrors, [
      'unknown field "metadata.we\\"ird\\n"',
    ]);
  });

  it('Strict fails with the errors joined as kube joins them', () => {
    const result = strict('{"a":1,"metadata":{"b":2}}');
    assert.deepEqual(decodeOutcome(result, 'Strict'), {
      error: 'strict decoding error: unknown field "a", unknown field "metadata.b"',
      warnings: [],
    });
  });

  it('Warn answers one warning per field and prunes', () => {
    const result = strict('{"a":1,"metadata":{"name":"x","b":2}}', 'Warn');
    assert.deepEqual(decodeOutcome(result, 'Warn'), {
      warnings: ['unknown field "a"', 'unknown field "metadata.b"'],
    });
    assert.deepEqual(result.object, { metadata: { name: 'x' } });
  });

  it('Ignore prunes silently', () => {
    const result = strict('{"a":1,"metadata":{"name":"x","b":2}}', 'Ignore');
    assert.deepEqual(result.strictErrors, []);
    assert.deepEqual(decodeOutcome(result, 'Ignore'), { warnings: [] });
    assert.deepEqual(result.object, { metadata: { name: 'x' } });
  });

  it('keeps free-form content (FieldsV1) untouched', () => {
    const entry = { manager: 'kubectl', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } };
    const result = strict(JSON.stringify({ metadata: { managedFields: [entry] } }));
    assert.deepEqual(result.strictErrors, []);
    assert.deepEqual((result.object as { metadata: { managedFields: unknown[] } }).metadata.managedFields, [
      entry,
    ]);
  });

  it('sorts by path for YAML input, as kube sees it after YAML→JSON', () => {
    const value = { zeta: 1, metadata: { z: 1, a: 2 }, alpha: 1 };
    const result = decoder.decodeValue(value, configMap, { fieldValidation: 'Warn', fromYAML: true });
    assert.deepEqual(result.strictErrors, [
      'unknown field "alpha"',
      'unknown field "metadata.a"',
      'unknown field "metadata.z"',
      'unknown field "zeta"',
    ]);
  });

  it('keeps at most 100 distinct errors', () => {
    const body: Record<string, number> = {};
    for (let i = 0; i < 150; i++) body[`f${i}`] = i;
    const errors = strict(JSON.stringify(body)).strictErrors;
    assert.equal(errors.length, 100);
    assert.equal(errors[99], 'unknown field "f99"');
  });
});

describe('duplicate fields', () => {
  it('reports nested, list and map duplicates in document order with unknown fields', () => {
    const text =
      '{"metadata":{"name":"a","name":"b","unknownMeta":1,"labels":{"k":"1","k":"2"},' +
      '"ownerReferences":[{"uid":"u","uid":"v","x":1}]},"spec":1,"data":{"y":"1"},"data":{"z":"2"}}';
    assert.deepEqual(strict(text).strictErrors, [
      'duplicate field "metadata.name"',
      'unknown field "metadata.unknownMeta"',
      'duplicate field "metadata.labels.k"',
      'duplicate field "metadata.ownerReferences[0].uid"',
      'unknown field "metadata.ownerReferences[0].x"',
      'unknown field "spec"',
      'duplicate field "data"',
    ]);
  });

  it('reports a field both unknown and repeated once, as unknown', () => {
    assert.deepEqual(strict('{"bogus":1,"bogus":2,"immutable":true,"immutable":false}').strictErrors, [
      'unknown field "bogus"',
      'duplicate field "immutable"',
    ]);
  });

  it('merges repeated objects as Go decodes them, and keeps the last scalar', () => {
    const text =
      '{"metadata":{"name":"a","labels":{"x":"1"}},"data":{"a":"1"},"metadata":{"labels":{"y":"2"},"namespace":"n"},"data":{"b":"2","a":"3"},"immutable":true,"immutable":false}';
    const result = strict(text, 'Warn');
    assert.deepEqual(result.object, {
      metadata: { name: 'a', labels: { x: '1', y: '2' }, namespace: 'n' },
      data: { a: '3', b: '2' },
      immutable: false,
    });
    assert.deepEqual(decodeOutcome(result, 'Warn').warnings, [
      'duplicate field "metadata"',
      'duplicate field "data"',
      'duplicate field "immutable"',
    ]);
  });

  it('replaces repeated lists', () => {
    const result = strict('{"metadata":{"finalizers":["a","b"],"finalizers":["c"]}}', 'Ignore');
    assert.deepEqual(result.object, { metadata: { finalizers: ['c'] } });
    assert.deepEqual(result.strictErrors, []);
  });

  it('does not look inside free-form values or unknown fields', () => {
    const text = '{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{},"f:a":{}}}]},"bogus":{"x":1,"x":2}}';
    assert.deepEqual(strict(text).strictErrors, ['unknown field "bogus"']);
  });

  it('handles whitespace, escapes and colons inside strings', () => {
    const text =
      '{\n  "metadata" : {\n    "name" : "a:b",\n    "annotations" : { "x\\"y" : "1", "x\\u0022y" : "2" }\n  }\n}';
    assert.deepEqual(strict(text).strictErrors, ['duplicate field "metadata.annotations.x\\"y"']);
  });
});

describe('defaults and Go zero values', () => {
  const secret = scheme.kindFor('v1', 'Secret');
  if (secret === undefined) throw new Error('Secret missing');

  it('fills in schema defaults only where absent', () => {
    assert.equal(
      (decoder.decodeText('{}', secret, { fieldValidation: 'Strict' }).object as { type: string }).type,
      'Opaque',
    );
    assert.equal(
      (
        decoder.decodeText('{"type":"kubernetes.io/tls"}', secret, { fieldValidation: 'Strict' }).object as {
          type: string;
        }
      ).type,
      'kubernetes.io/tls',
    );
    assert.equal(
      (decoder.decodeText('{"type":null}', secret, { fieldValidation: 'Strict' }).object as { type: string })
        .type,
      'Opaque',
    );
  });

  it('defaults inside defaulted structs', () => {
    const result = decoder.decodeText('{"metadata":{"name":"ns"}}', namespace, { fieldValidation: 'Strict' });
    assert.deepEqual(result.object, { metadata: { name: 'ns' }, spec: {}, status: { phase: 'Active' } });
  });

  it('can leave defaults out', () => {
    const result = decoder.decodeText('{}', secret, { fieldValidation: 'Strict', defaults: false });
    assert.deepEqual(result.object, {});
  });

  it('stores nulls as Go does: fields dropped, map and list strings empty', () => {
    const result = strict('{"metadata":{"name":null,"labels":{"a":null},"finalizers":[null]},"data":null}');
    assert.deepEqual(result.object, { metadata: { labels: { a: '' }, finalizers: [''] } });
  });

  it('normalises timestamps to UTC seconds, as kube writes them back', () => {
    const result = strict('{"metadata":{"creationTimestamp":"2024-03-01T10:00:00.123+02:00"}}');
    assert.deepEqual(result.object, { metadata: { creationTimestamp: '2024-03-01T08:00:00Z' } });
  });

  it('turns a byte array into base64', () => {
    const result = decoder.decodeText('{"data":{"a":[104,105]}}', secret, {
      fieldValidation: 'Strict',
      defaults: false,
    });
    assert.deepEqual(result.object, { data: { a: 'aGk=' } });
  });
});

describe('hostile keys', () => {
  it('treats __proto__ as a plain key on both paths', () => {
    const fast = strict('{"metadata":{"labels":{"__proto__":"x"}},"__proto__":{"polluted":true}}', 'Warn');
    assert.deepEqual(fast.strictErrors, ['unknown field "__proto__"']);
    const slow = strict(
      '{"metadata":{"labels":{"__proto__":"x","__proto__":"y"}},"__proto__":{"polluted":true}}',
      'Warn',
    );
    assert.deepEqual(slow.strictErrors, [
      'duplicate field "metadata.labels.__proto__"',
      'unknown field "__proto__"',
    ]);
    const labels = (slow.object as { metadata: { labels: object } }).metadata.labels;
    assert.equal(Object.getPrototypeOf(labels), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(labels, '__proto__')?.value, 'y');
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });
});
