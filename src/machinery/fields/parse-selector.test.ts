import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { escapeValue, unescapeValue } from './escape.js';
import { parseSelector } from './parse-selector.js';
import type { Fields, Selector, TransformFunc } from './selector.js';
import { andSelectors, oneTermEqualSelector, selectorFromSet } from './selector-from-set.js';

function selector(input: string, transform?: TransformFunc): Selector {
  const r = parseSelector(input, transform);
  if (!r.ok) assert.fail(`${JSON.stringify(input)}: ${r.message}`);
  return r.selector;
}

function failure(input: string, transform?: TransformFunc): string {
  const r = parseSelector(input, transform);
  if (r.ok) assert.fail(`${JSON.stringify(input)} parsed as ${r.selector.toString()}`);
  return r.message;
}

describe('fields.parseSelector: accepted, printed back as kube prints it', () => {
  const cases: [string, string][] = [
    ['', ''],
    [',,', ''],
    ['x=a', 'x=a'],
    ['x==a', 'x=a'],
    ['x!=a', 'x!=a'],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['z=c,x=a', 'x=a,z=c'],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=', 'x='],
    ['=a', '=a'],
    ['metadata.name=foo,metadata.namespace!=bar', 'metadata.name=foo,metadata.namespace!=bar'],
    ['a=b\\,c', 'a=b\\,c'],
    ['a=b\\=c\\\\d', 'a=b\\=c\\\\d'],
    ['a=b c', 'a=b c'],
    [' a = b ', ' a = b '],
    ['a=é', 'a=é'],
    ['x=a,', 'x=a'],
  ];
  for (const [input, want] of cases) {
    test(JSON.stringify(input), () => {
      assert.equal(selector(input).toString(), want);
    });
  }

  test('terms carry unescaped values', () => {
    assert.deepEqual(selector('b!=x\\,y,a==1\\\\').requirements, [
      { field: 'a', operator: '=', value: '1\\' },
      { field: 'b', operator: '!=', value: 'x,y' },
    ]);
  });

  test('the order written does not matter', () => {
    assert.equal(selector('x=a,a=x').toString(), selector('a=x,x=a').toString());
  });
});

describe("fields.parseSelector: refused with kube's message", () => {
  const cases: [string, string][] = [
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['z,a', "invalid selector: 'z,a'; can't understand 'a'"],
    ['x=a||y=b', 'invalid field selector: unescaped character in value: 61'],
    ['x==a==b', 'invalid field selector: unescaped character in value: 61'],
    ['a!==b', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\,c=d', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=b\\n', 'invalid field selector: invalid escape sequence: \\n'],
    ['a=\\😀', 'invalid field selector: invalid escape sequence: \\😀'],
  ];
  for (const [input, want] of cases) {
    test(JSON.stringify(input), () => {
      assert.equal(failure(input), want);
    });
  }
});

describe('fields Selector.matches', () => {
  const cases: [string, Fields, boolean][] = [
    ['', {}, true],
    ['x=y', { x: 'y' }, true],
    ['x=y', { x: 'z' }, false],
    ['x=y', {}, false],
    // A missing field reads as the empty string.
    ['x=', {}, true],
    ['x!=', {}, false],
    ['x!=y', {}, true],
    ['x!=y', { x: 'y' }, false],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['notin=in', { notin: 'in' }, true],
    ['constructor=', {}, true],
    ['toString=x', {}, false],
    ['a=b\\,c', { a: 'b,c' }, true],
  ];
  for (const [input, fields, want] of cases) {
    test(`${JSON.stringify(input)} on ${JSON.stringify(fields)}`, () => {
      assert.equal(selector(input).matches(fields), want);
    });
  }
});

describe('fields requiresExactMatch', () => {
  const cases: [string, string, string | undefined][] = [
    ['a=b', 'a', 'b'],
    ['a==b', 'a', 'b'],
    ['a=', 'a', ''],
    ['a!=b', 'a', undefined],
    ['x=1,a=b', 'a', 'b'],
    ['x=1', 'a', undefined],
    ['', 'a', undefined],
  ];
  for (const [input, field, want] of cases) {
    test(`${JSON.stringify(input)} for ${field}`, () => {
      assert.equal(selector(input).requiresExactMatch(field), want);
    });
  }
});

describe('transform', () => {
  const podLabels: TransformFunc = (field, value) => {
    if (field === 'name') return { ok: true, field: 'metadata.name', value };
    if (field.startsWith('metadata.') || field === 'status.phase') return { ok: true, field, value };
    if (field === 'ignored') return { ok: true, field: '', value: '' };
    return { ok: false, message: `field label not supported: ${field}` };
  };

  test('rewrites fields while parsing', () => {
    assert.equal(
      selector('name=a,status.phase!=Running', podLabels).toString(),
      'metadata.name=a,status.phase!=Running',
    );
  });

  test('drops terms rewritten to nothing', () => {
    const s = selector('ignored=x', podLabels);
    assert.ok(s.empty());
    assert.equal(selector('ignored=x,name=a', podLabels).toString(), 'metadata.name=a');
  });

  test('returns the first failure', () => {
    assert.equal(failure('spec.nodeName=n,name=a', podLabels), 'field label not supported: spec.nodeName');
  });

  test('applies to a parsed selector too, leaving it unchanged', () => {
    const s = selector('name=a');
    const r = s.transform(podLabels);
    assert.ok(r.ok);
    assert.equal(r.selector.toString(), 'metadata.name=a');
    assert.equal(s.toString(), 'name=a');
  });
});

describe('escaping', () => {
  const cases: [string, string][] = [
    ['plain', 'plain'],
    ['a,b', 'a\\,b'],
    ['a=b', 'a\\=b'],
    ['a\\b', 'a\\\\b'],
    ['\\,=', '\\\\\\,\\='],
    ['', ''],
  ];
  for (const [raw, escaped] of cases) {
    test(`escapeValue(${JSON.stringify(raw)})`, () => {
      assert.equal(escapeValue(raw), escaped);
      assert.deepEqual(unescapeValue(escaped), { ok: true, value: raw });
    });
  }

  test('a bare comma is refused by its code point', () => {
    assert.deepEqual(unescapeValue('a,b'), {
      ok: false,
      message: 'invalid field selector: unescaped character in value: 44',
    });
  });
});

describe('selectors built in code', () => {
  test('selectorFromSet', () => {
    const s = selectorFromSet({ 'metadata.namespace': 'd', 'metadata.name': 'n' });
    assert.equal(s.toString(), 'metadata.name=n,metadata.namespace=d');
    assert.ok(s.matches({ 'metadata.name': 'n', 'metadata.namespace': 'd' }));
    assert.ok(selectorFromSet(undefined).empty());
  });

  test('oneTermEqualSelector and andSelectors', () => {
    const s = andSelectors(oneTermEqualSelector('a', 'x,y'), selector('b!=2'));
    assert.equal(s.toString(), 'a=x\\,y,b!=2');
    assert.ok(s.matches({ a: 'x,y', b: '1' }));
    assert.equal(s.requiresExactMatch('a'), 'x,y');
  });
});
