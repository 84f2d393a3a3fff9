import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GoRegexp, RegexpSyntaxError } from './go-regexp.js';

describe('GoRegexp', () => {
  // Syntax RE2 has and ECMAScript lacks (or reads otherwise), with a string each must match and one
  // it must not.
  const re2Only: { pattern: string; matches: string; misses: string }[] = [
    { pattern: '^(?i)(abort|warn)?$', matches: 'WaRn', misses: 'warning' },
    { pattern: '^(?s)a.b$', matches: 'a\nb', misses: 'a\n\nb' },
    { pattern: 'end\\z', matches: 'the end', misses: 'the end\n' },
    { pattern: '^\\pL+$', matches: 'Grüße', misses: 'abc1' },
    { pattern: '^[[:alpha:]]+$', matches: 'abcXYZ', misses: 'ab-c' },
    { pattern: '^\\Qa.b*\\E$', matches: 'a.b*', misses: 'axbb' },
    { pattern: '^(?P<word>[a-z]+)$', matches: 'word', misses: 'Word' },
  ];
  for (const c of re2Only) {
    it(`compiles ${c.pattern} with RE2's meaning`, () => {
      const re = GoRegexp.compile(c.pattern);
      assert.equal(re.matchString(c.matches), true);
      assert.equal(re.matchString(c.misses), false);
    });
  }

  // ECMAScript syntax that Go's regexp.Compile refuses, with Go's error text.
  const refused: { pattern: string; error: string }[] = [
    { pattern: 'a(?=b)', error: 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`' },
    { pattern: 'a(?!b)', error: 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`' },
    { pattern: '(a)\\1', error: 'error parsing regexp: invalid escape sequence: `\\1`' },
    { pattern: '(?<=a)b', error: 'error parsing regexp: invalid named capture: `(?<=a)b`' },
    { pattern: 'x++', error: 'error parsing regexp: invalid nested repetition operator: `++`' },
    { pattern: 'a{1001}', error: 'error parsing regexp: invalid repeat count: `{1001}`' },
    { pattern: ')', error: 'error parsing regexp: unexpected ): `)`' },
  ];
  for (const c of refused) {
    it(`refuses ${c.pattern} as Go does`, () => {
      assert.throws(
        () => GoRegexp.compile(c.pattern),
        (err: unknown) => err instanceof RegexpSyntaxError && err.message === c.error,
      );
    });
  }

  it('finds the leftmost-first match', () => {
    assert.equal(GoRegexp.compile('[0-9]+').findString('this is a 123 string 456'), '123');
    assert.equal(GoRegexp.compile('a|ab').findString('ab'), 'a');
    assert.equal(GoRegexp.compile('xyz').findString('abc'), '');
  });

  it("finds all matches as Go's FindAllString does", () => {
    const digits = GoRegexp.compile('[0-9]+');
    assert.deepEqual(digits.findAllString('this is a 123 string 456', -1), ['123', '456']);
    assert.deepEqual(digits.findAllString('this is a 123 string 456', 1), ['123']);
    assert.deepEqual(digits.findAllString('this is a 123 string 456', 0), []);
    // An empty match right after a match is skipped.
    assert.deepEqual(GoRegexp.compile('a*').findAllString('baaac', -1), ['', 'aaa', '']);
    assert.deepEqual(GoRegexp.compile('x*').findAllString('abc', -1), ['', '', '', '']);
    // Steps over a code point, not half of a surrogate pair.
    assert.deepEqual(GoRegexp.compile('').findAllString('\u{1F600}', -1), ['', '']);
  });
});
