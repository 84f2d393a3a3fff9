import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPath } from '../validation/index.js';
import { labelValueMsg, namePartMsg } from '../validation/testing/kube-messages.js';
import type { LabelSelector } from './meta-label-selector.js';
import { validateLabelSelector } from './validate-label-selector.js';

const path = newPath('spec', 'selector');

const cases: [string, LabelSelector | null, string[]][] = [
  ['no selector', null, []],
  [
    'valid',
    { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] },
    [],
  ],
  ['Exists without values', { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, []],
  [
    'In without values',
    { matchExpressions: [{ key: 'tier', operator: 'In' }] },
    [
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
  ],
  [
    'DoesNotExist with values',
    {
      matchExpressions: [
        { key: 'a', operator: 'Exists' },
        { key: 'tier', operator: 'DoesNotExist', values: ['x'] },
      ],
    },
    [
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ],
  ],
  [
    'unknown operator and bad key',
    { matchExpressions: [{ key: 'a b', operator: 'Equals', values: ['x'] }] },
    [
      'spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator',
      `spec.selector.matchExpressions[0].key: Invalid value: "a b": ${namePartMsg}`,
    ],
  ],
  [
    'values that are not label values',
    { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['ok', 'not ok', '-x'] }] },
    [
      `spec.selector.matchExpressions[0].values[1]: Invalid value: "not ok": ${labelValueMsg}`,
      `spec.selector.matchExpressions[0].values[2]: Invalid value: "-x": ${labelValueMsg}`,
    ],
  ],
  [
    'bad matchLabels',
    { matchLabels: { app: '-web' } },
    [`spec.selector.matchLabels: Invalid value: "-web": ${labelValueMsg}`],
  ],
];

for (const [name, input, want] of cases) {
  test(`validateLabelSelector: ${name}`, () => {
    assert.deepEqual(
      validateLabelSelector(input, path).map((e) => e.error()),
      want,
    );
  });
}

test('validateLabelSelector: allowInvalidLabelValue lets values pass, as kube does for an old selector', () => {
  const selector = { matchExpressions: [{ key: 'tier', operator: 'In', values: ['not ok'] }] };
  assert.deepEqual(validateLabelSelector(selector, path, { allowInvalidLabelValue: true }), []);
});
