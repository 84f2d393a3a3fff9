import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { labelValueMsg, namePartMsg } from '../validation/testing/kube-messages.js';
import { labelSelectorAsSelector, type LabelSelector } from './meta-label-selector.js';
import { selectorFromSet, validatedSelectorFromSet } from './selector-from-set.js';

describe('labelSelectorAsSelector', () => {
  const good: [string, LabelSelector | null | undefined, string, boolean][] = [
    ['empty selects everything', {}, '', true],
    ['empty lists select everything', { matchLabels: {}, matchExpressions: [] }, '', true],
    ['matchLabels', { matchLabels: { b: '2', a: '1' } }, 'a=1,b=2', false],
    [
      'In',
      { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'db'] }] },
      'tier in (db,web)',
      false,
    ],
    [
      'NotIn',
      { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] },
      'tier notin (db)',
      false,
    ],
    ['Exists', { matchExpressions: [{ key: 'x', operator: 'Exists' }] }, 'x', false],
    ['DoesNotExist', { matchExpressions: [{ key: 'x', operator: 'DoesNotExist', values: [] }] }, '!x', false],
    [
      'both, sorted by key',
      { matchLabels: { b: '1' }, matchExpressions: [{ key: 'a', operator: 'Exists' }] },
      'a,b=1',
      false,
    ],
  ];
  for (const [name, input, want, empty] of good) {
    test(name, () => {
      const r = labelSelectorAsSelector(input);
      assert.ok(r.ok);
      assert.equal(r.selector.toString(), want);
      assert.equal(r.selector.empty(), empty);
    });
  }

  test('no selector selects nothing', () => {
    for (const input of [null, undefined]) {
      const r = labelSelectorAsSelector(input);
      assert.ok(r.ok && !r.selector.selectable && !r.selector.matches({}));
    }
  });

  const bad: [string, LabelSelector, string][] = [
    [
      'unknown operator',
      { matchExpressions: [{ key: 'x', operator: 'Seriously' }] },
      '"Seriously" is not a valid label selector operator',
    ],
    [
      'lowercase operator',
      { matchExpressions: [{ key: 'x', operator: 'in', values: ['a'] }] },
      '"in" is not a valid label selector operator',
    ],
    [
      'In without values',
      { matchExpressions: [{ key: 'x', operator: 'In', values: [] }] },
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'x', operator: 'Exists', values: ['a'] }] },
      'values: Invalid value: ["a"]: values set must be empty for exists and does not exist',
    ],
    [
      'bad matchLabels value',
      { matchLabels: { app: 'a b' } },
      `values[0][app]: Invalid value: "a b": ${labelValueMsg}`,
    ],
    ['bad matchLabels key', { matchLabels: { 'a b': 'x' } }, `key: Invalid value: "a b": ${namePartMsg}`],
    [
      'an expression without its operator has Go zero operator',
      { matchExpressions: [{ key: 'a' } as { key: string; operator: string }] },
      '"" is not a valid label selector operator',
    ],
  ];
  for (const [name, input, want] of bad) {
    test(name, () => {
      const r = labelSelectorAsSelector(input);
      assert.ok(!r.ok);
      assert.equal(r.message, want);
    });
  }
});

describe('selectorFromSet', () => {
  test('matches the set exactly, keys sorted', () => {
    const s = selectorFromSet({ b: '2', a: '1' });
    assert.equal(s.toString(), 'a=1,b=2');
    assert.ok(s.matches({ a: '1', b: '2', c: '3' }));
    assert.ok(!s.matches({ a: '1' }));
    assert.equal(s.requiresExactMatch('b'), '2');
  });

  test('an empty or missing set selects everything', () => {
    assert.ok(selectorFromSet({}).empty());
    assert.ok(selectorFromSet(undefined).empty());
  });

  test('the validated form refuses bad values', () => {
    const r = validatedSelectorFromSet({ a: '-x' });
    assert.ok(!r.ok);
    assert.equal(r.message, `values[0][a]: Invalid value: "-x": ${labelValueMsg}`);
  });
});

test('labelSelectorAsSelector: an expression lacking key or operator, as decoded, is refused in words', () => {
  const decoded = { matchExpressions: [{ values: ['a'] }] } as unknown as LabelSelector;
  assert.deepEqual(labelSelectorAsSelector(decoded), {
    ok: false,
    message: '"" is not a valid label selector operator',
  });
});
