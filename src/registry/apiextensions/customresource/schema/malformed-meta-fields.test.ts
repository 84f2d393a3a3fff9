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
