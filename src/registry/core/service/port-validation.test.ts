import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPath } from '../../../machinery/validation/index.js';
import { validatePortNumOrName } from './port-validation.js';

test('a port missing from a decoded body is intstr zero: out of range, not a crash', () => {
  const errs = validatePortNumOrName(undefined, newPath('port'));
  assert.deepEqual(
    errs.map((e) => [e.field, e.badValue, e.detail]),
    [['port', 0, 'must be between 1 and 65535, inclusive']],
  );
});
