import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OwnerReference } from '../../api/meta.js';
import { newPath } from './field-path.js';
import { validateOwnerReferences } from './validate-owner-references.js';

test('an owner reference lacking its fields is invalid field by field, as Go sees empty strings', () => {
  const decoded = [{ blockOwnerDeletion: false }] as unknown as OwnerReference[];
  const errs = validateOwnerReferences(decoded, newPath('metadata', 'ownerReferences'));
  assert.deepEqual(
    errs.map((e) => `${e.field}: ${e.detail}`),
    [
      'metadata.ownerReferences.apiVersion: version must not be empty',
      'metadata.ownerReferences.kind: kind must not be empty',
      'metadata.ownerReferences.name: name must not be empty',
      'metadata.ownerReferences.uid: uid must not be empty',
    ],
  );
});
