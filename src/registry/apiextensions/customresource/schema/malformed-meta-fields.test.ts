import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropMalformedObjectMetaFields } from './malformed-meta-fields.js';

test('metadata fields that do not decode into ObjectMeta, or are null, are dropped whole; the rest stay', () => {
  const meta: Record<string, unknown> = {
    name: 'w',
    finalizers: { a: null },
    labels: { a: 1 },
    annotations: { a: 'b' },
    generation: 1.5,
    ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u' }, { controller: 'yes' }],
    managedFields: [{ manager: 'm', operation: 'Update' }],
    deletionGracePeriodSeconds: null,
    creationTimestamp: 'not a time',
  };
  dropMalformedObjectMetaFields(meta);
  assert.deepEqual(meta, {
    name: 'w',
    annotations: { a: 'b' },
    managedFields: [{ manager: 'm', operation: 'Update' }],
  });
});

test('a null element of a metadata list or map is its zero value, as Go decodes it', () => {
  const meta: Record<string, unknown> = {
    finalizers: ['a/b', null],
    labels: { a: null, b: 'c' },
    annotations: { x: null },
    ownerReferences: [null, { apiVersion: 'v1', kind: null, name: 'p', uid: 'u' }],
    managedFields: [null],
  };
  dropMalformedObjectMetaFields(meta);
  assert.deepEqual(meta, {
    finalizers: ['a/b', ''],
    labels: { a: '', b: 'c' },
    annotations: { x: '' },
    ownerReferences: [{}, { apiVersion: 'v1', name: 'p', uid: 'u' }],
    managedFields: [{}],
  });
});

test('keys named like Object.prototype members are unknown fields or map keys, as in Go', () => {
  const meta = JSON.parse(
    '{"name":"w","hasOwnProperty":{"a":null},"toString":{"b":null},"__proto__":"x",' +
      '"labels":{"__proto__":null,"constructor":null},' +
      '"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u","isPrototypeOf":"x","__proto__":1}],' +
      '"managedFields":[{"manager":"m","hasOwnProperty":"x"}]}',
  ) as Record<string, unknown>;
  dropMalformedObjectMetaFields(meta);
  // Unknown fields are left for pruning and unknown-field reporting; known ones decode as before.
  assert.equal(
    JSON.stringify(meta),
    '{"name":"w","hasOwnProperty":{"a":null},"toString":{"b":null},"__proto__":"x",' +
      '"labels":{"__proto__":"","constructor":""},' +
      '"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u","isPrototypeOf":"x","__proto__":1}],' +
      '"managedFields":[{"manager":"m","hasOwnProperty":"x"}]}',
  );
});
