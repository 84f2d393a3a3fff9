// Which merge and strategic merge patches leave an object's managedFields as they are, so that the
// patch handler may apply them to the object without its managedFields.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { jsonPatchMechanism } from './json-patch.js';
import { mergePatchMechanism } from './merge-patch.js';
import type { PatchMechanism } from './patch-mechanism.js';
import { strategicMergePatchMechanism } from './strategic-merge-patch.js';

const keeps = (
  m: PatchMechanism,
  patch: string,
  fieldValidation: 'Strict' | 'Ignore' = 'Strict',
): boolean | undefined => m.keepsManagedFields?.(m.prepare({ patch: Buffer.from(patch), fieldValidation }));

const both: readonly [string, boolean][] = [
  ['{"spec":{"x":1}}', true],
  ['{"metadata":{"labels":{"a":"b"}}}', true],
  ['{"metadata":{}}', true],
  ['{"metadata":{"managedFields":[]}}', false],
  ['{"metadata":{"managedFields":null}}', false],
  ['{"metadata":{"m\\u0061nagedFields":[{}]}}', false],
  ['{"metadata":null}', false],
];

describe('patches that keep managedFields', () => {
  it('merge patch: an object whose metadata, if any, is an object without them', () => {
    for (const [patch, want] of both) assert.equal(keeps(mergePatchMechanism, patch), want, patch);
    // An array replaces the whole document (taken when fieldValidation is Ignore).
    assert.equal(keeps(mergePatchMechanism, '[1]', 'Ignore'), false);
  });

  it('strategic merge patch: no directive over the object or its metadata, no key naming them', () => {
    const smp = strategicMergePatchMechanism(builtinScheme());
    const cases: readonly [string, boolean][] = [
      ...both,
      ['{"$patch":"replace","spec":{}}', false],
      ['{"$retainKeys":["spec"],"spec":{}}', false],
      ['{"metadata":{"$patch":"replace","name":"x"}}', false],
      ['{"metadata":{"$retainKeys":["labels"],"labels":{}}}', false],
      ['{"metadata":{"$setElementOrder/managedFields":[]}}', false],
      ['{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}', true],
      ['{"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"name":"c"}]}}', true],
    ];
    for (const [patch, want] of cases) assert.equal(keeps(smp, patch), want, patch);
  });

  it('JSON patch: never (its operations apply to the whole encoded object)', () => {
    assert.equal('keepsManagedFields' in jsonPatchMechanism, false);
  });
});
