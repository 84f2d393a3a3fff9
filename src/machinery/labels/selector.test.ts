import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { labelValueMsg, namePartMsg } from '../validation/testing/kube-messages.js';
import { newPath } from '../validation/index.js';
import type { Labels } from './compile-requirement.js';
import { parseSelector } from './parse-selector.js';
import { newRequirement, type Requirement } from './requirement.js';
import { Selector } from './selector.js';

function selector(input: string): Selector {
  const r = parseSelector(input);
  if (!r.ok) assert.fail(r.message);
  return r.selector;
}

function requirement(spec: Requirement): Requirement {
  const r = newRequirement(spec);
  if (!r.ok) assert.fail(r.error.error());
  return r.requirement;
}

describe('Selector.matches', () => {
  const cases: [string, Labels, boolean][] = [
    ['', {}, true],
    ['', { x: 'y' }, true],
    ['x=y', { x: 'y' }, true],
    ['x=y', { x: 'z' }, false],
    ['x=y', {}, false],
    ['x==y', { x: 'y' }, true],
    ['x=', { x: '' }, true],
    ['x=', {}, false],
    ['x!=y', {}, true],
    ['x!=y', { x: 'y' }, false],
    ['x!=y', { x: 'z' }, true],
    ['x!=', {}, true],
    ['x!=', { x: '' }, false],
    ['x in (a,b)', { x: 'b' }, true],
    ['x in (a,b)', { x: 'c' }, false],
    ['x in (a,b)', {}, false],
    ['x in (,a)', { x: '' }, true],
    ['x notin (a,b)', {}, true],
    ['x notin (a,b)', { x: 'a' }, false],
    ['x notin (a,b)', { x: 'c' }, true],
    ['x', { x: '' }, true],
    ['x', { y: 'x' }, false],
    ['!x', {}, true],
    ['!x', { x: '' }, false],
    ['x>1', { x: '2' }, true],
    ['x>1', { x: '1' }, false],
    ['x>1', { x: '+5' }, true],
    ['x>1', { x: '007' }, true],
    ['x>1', { x: 'a' }, false],
    ['x>1', { x: '2.5' }, false],
    ['x>1', {}, false],
    ['x>1', { x: '9223372036854775807' }, true],
    ['x>1', { x: '9223372036854775808' }, false],
    ['x<1', { x: '-5' }, true],
    ['x<1', { x: '0' }, true],
    ['x<1', { x: '1' }, false],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x=y,z=w', { x: 'y' }, false],
    ['x=y,!z', { x: 'y', z: 'w' }, false],
    ['a in (1),b notin (2),c,!d', { a: '1', b: '3', c: '' }, true],
    // Labels are own properties only.
    ['constructor', {}, false],
    ['!toString', {}, true],
    ['hasOwnProperty=x', {}, false],
  ];
  for (const [input, labels, want] of cases) {
    test(`${JSON.stringify(input)} on ${JSON.stringify(labels)}`, () => {
      assert.equal(selector(input).matches(labels), want);
    });
  }
});

describe('requiresExactMatch', () => {
  const cases: [string, string, string | undefined][] = [
    ['x=a', 'x', 'a'],
    ['x==a', 'x', 'a'],
    ['x in (a)', 'x', 'a'],
    ['x=', 'x', ''],
    ['x in (a,b)', 'x', undefined],
    ['x!=a', 'x', undefined],
    ['x notin (a)', 'x', undefined],
    ['x', 'x', undefined],
    ['!x', 'x', undefined],
    ['x>1', 'x', undefined],
    ['y=a', 'x', undefined],
    ['', 'x', undefined],
    ['b=2,a=1,c=3', 'c', '3'],
    // The first requirement on the key decides, as in kube.
    ['x=a,x!=b', 'x', 'a'],
    ['x!=b,x=a', 'x', undefined],
  ];
  for (const [input, label, want] of cases) {
    test(`${JSON.stringify(input)} for ${label}`, () => {
      assert.equal(selector(input).requiresExactMatch(label), want);
    });
  }

  test('exactMatchRequirements lists every pinned label', () => {
    assert.deepEqual(
      [...selector('a=1,b in (2),c!=3,d in (4,5),e,f==6').exactMatchRequirements()],
      [
        ['a', '1'],
        ['b', '2'],
        ['f', '6'],
      ],
    );
  });
});

describe('Everything and Nothing', () => {
  test('everything matches all and is empty', () => {
    const s = Selector.everything();
    assert.ok(s.matches({}) && s.matches({ a: 'b' }));
    assert.ok(s.empty() && s.selectable);
    assert.equal(s.toString(), '');
  });

  test('nothing matches none and is not empty', () => {
    const s = Selector.nothing();
    assert.ok(!s.matches({}) && !s.matches({ a: 'b' }));
    assert.ok(!s.empty() && !s.selectable);
    assert.equal(s.toString(), '');
    assert.equal(s.add(requirement({ key: 'a', operator: 'exists', values: [] })), s);
    assert.equal(s.requiresExactMatch('a'), undefined);
  });

  test('add returns a new sorted selector', () => {
    const base = selector('m=1');
    const more = base.add(
      requirement({ key: 'a', operator: '!', values: [] }),
      requirement({ key: 'z', operator: 'in', values: ['2', '1'] }),
    );
    assert.equal(base.toString(), 'm=1');
    assert.equal(more.toString(), '!a,m=1,z in (1,2)');
    assert.ok(more.matches({ m: '1', z: '2' }));
  });
});

describe('newRequirement', () => {
  const cases: [string, Parameters<typeof newRequirement>[0], string][] = [
    [
      'in without values',
      { key: 'x', operator: 'in', values: [] },
      "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'notin with nil values',
      { key: 'x', operator: 'notin', values: null },
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      '= with two values',
      { key: 'x', operator: '=', values: ['a', 'b'] },
      'values: Invalid value: ["a","b"]: exact-match compatibility requires one single value',
    ],
    [
      '!= without value',
      { key: 'x', operator: '!=', values: [] },
      'values: Invalid value: []: exact-match compatibility requires one single value',
    ],
    [
      'exists with a value',
      { key: 'x', operator: 'exists', values: ['a'] },
      'values: Invalid value: ["a"]: values set must be empty for exists and does not exist',
    ],
    [
      'gt with two values',
      { key: 'x', operator: 'gt', values: ['1', '2'] },
      `values: Invalid value: ["1","2"]: for 'Gt', 'Lt' operators, exactly one value is required`,
    ],
    [
      'lt with a word',
      { key: 'x', operator: 'lt', values: ['a'] },
      `values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    ['bad key', { key: 'a b', operator: 'exists', values: [] }, `key: Invalid value: "a b": ${namePartMsg}`],
    [
      'bad key and values',
      { key: '-k', operator: 'in', values: ['ok', '-v'] },
      `[key: Invalid value: "-k": ${namePartMsg}, values[1][-k]: Invalid value: "-v": ${labelValueMsg}]`,
    ],
  ];
  for (const [name, spec, want] of cases) {
    test(name, () => {
      const r = newRequirement(spec);
      assert.ok(!r.ok);
      assert.equal(r.error.error(), want);
    });
  }

  test('a path prefixes the fields', () => {
    const r = newRequirement({ key: 'x', operator: 'in', values: [] }, newPath('spec', 'selector'));
    assert.ok(!r.ok);
    assert.equal(
      r.error.error(),
      "spec.selector.values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty",
    );
  });

  test('keeps the values in the order given', () => {
    assert.deepEqual(requirement({ key: 'x', operator: 'in', values: ['b', 'a'] }).values, ['b', 'a']);
  });
});
