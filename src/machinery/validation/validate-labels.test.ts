import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPath } from './field-path.js';
import { validateLabelName } from './validate-labels.js';

test('a label key missing from a decoded body is validated as the empty string', () => {
  const errs = validateLabelName(undefined, newPath('key'));
  assert.ok(errs.length > 0);
  assert.ok(errs.every((e) => e.field === 'key' && e.badValue === ''));
});
