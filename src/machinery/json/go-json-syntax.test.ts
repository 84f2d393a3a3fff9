import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goJSONSyntaxError } from './go-json-syntax.js';

// The texts of Go's encoding/json for each kind of syntax error.
const cases: readonly [string, string | null][] = [
  ['{"a":1}', null],
  [' [1, 2.5e-3, -0, "x\\u00e9", true, false, null] ', null],
  ['', 'unexpected end of JSON input'],
  ['{', 'unexpected end of JSON input'],
  ['{bad', "invalid character 'b' looking for beginning of object key string"],
  ['{"a" 1}', "invalid character '1' after object key"],
  ['{"a":1 "b"}', "invalid character '\"' after object key:value pair"],
  ['[1 2]', "invalid character '2' after array element"],
  ['{"a":1}x', "invalid character 'x' after top-level value"],
  ['x', "invalid character 'x' looking for beginning of value"],
  ["'a'", "invalid character '\\'' looking for beginning of value"],
  ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
  ['{"a":nul}', "invalid character '}' in literal null (expecting 'l')"],
  ['-x', "invalid character 'x' in numeric literal"],
  ['1.x', "invalid character 'x' after decimal point in numeric literal"],
  ['1ex', "invalid character 'x' in exponent of numeric literal"],
  ['01', "invalid character '1' after top-level value"],
  ['"\\q"', "invalid character 'q' in string escape code"],
  ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
  ['"a\tb"', "invalid character '\\t' in string literal"],
  ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
  ['[1,]', "invalid character ']' looking for beginning of value"],
];

for (const [input, want] of cases) {
  test(`Go JSON syntax: ${JSON.stringify(input)}`, () => {
    assert.equal(goJSONSyntaxError(Buffer.from(input)), want);
  });
}
