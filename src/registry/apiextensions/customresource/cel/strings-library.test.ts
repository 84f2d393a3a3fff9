import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCel } from './load.js';

const lib = await loadCel();
const run = (source: string): unknown => lib.cel.plan(lib.env, lib.parse(source))({});

// The examples of cel-go's ext/strings.go documentation, and the same over characters outside the
// BMP, which are one position each as in Go's runes.
describe("cel-go's string extension", () => {
  it('takes the documented examples', () => {
    for (const expr of [
      "'hello'.charAt(4) == 'o'",
      "'hello'.charAt(5) == ''",
      "'hello mellow'.indexOf('') == 0",
      "'hello mellow'.indexOf('ello') == 1",
      "'hello mellow'.indexOf('jello') == -1",
      "'hello mellow'.indexOf('', 2) == 2",
      "'hello mellow'.indexOf('ello', 2) == 7",
      "'hello mellow'.lastIndexOf('') == 12",
      "'hello mellow'.lastIndexOf('ello') == 7",
      "'hello mellow'.lastIndexOf('jello') == -1",
      "'hello mellow'.lastIndexOf('ello', 6) == 1",
      "'hello hello'.replace('he', 'we') == 'wello wello'",
      "'hello hello'.replace('he', 'we', -1) == 'wello wello'",
      "'hello hello'.replace('he', 'we', 1) == 'wello hello'",
      "'hello hello'.replace('he', 'we', 0) == 'hello hello'",
      "'hello hello'.replace('', '_') == '_h_e_l_l_o_ _h_e_l_l_o_'",
      "'hello hello'.replace('h', '') == 'ello ello'",
      "'hello hello hello'.split(' ') == ['hello', 'hello', 'hello']",
      "'hello hello hello'.split(' ', 0) == []",
      "'hello hello hello'.split(' ', 1) == ['hello hello hello']",
      "'hello hello hello'.split(' ', 2) == ['hello', 'hello hello']",
      "'hello hello hello'.split(' ', -1) == ['hello', 'hello', 'hello']",
      "'abc'.split('', 2) == ['a', 'bc']",
      "'tacocat'.substring(4) == 'cat'",
      "'tacocat'.substring(0, 4) == 'taco'",
      "'tacocat'.substring(7) == ''",
    ])
      assert.equal(run(expr), true, expr);
  });

  it('counts characters outside the BMP once', () => {
    for (const expr of [
      "'👑a'.indexOf('a') == 1",
      "'👑a👑'.indexOf('👑', 1) == 2",
      "'👑a👑'.lastIndexOf('👑') == 2",
      "'👑a👑'.lastIndexOf('👑', 1) == 0",
      "'👑ab'.charAt(1) == 'a'",
      "'👑ab'.charAt(0) == '👑'",
      "'👑abc'.substring(1, 3) == 'ab'",
      "'Rook takes 👑'.split(' ', 2) == ['Rook', 'takes 👑']",
      "'👑👑'.split('', 1) == ['👑👑']",
      "'a👑'.replace('', '-') == '-a-👑-'",
    ])
      assert.equal(run(expr), true, expr);
  });

  it('answers out-of-range positions with cel-go’s errors', () => {
    const error = (expr: string): string => {
      const out = run(expr);
      assert.ok(lib.cel.isCelError(out), expr);
      return out.message;
    };
    assert.equal(error("'hello'.charAt(6)"), 'index out of range: 6');
    assert.equal(error("'hello mellow'.indexOf('ello', 20)"), 'index out of range: 20');
    assert.equal(error("'hello mellow'.lastIndexOf('ello', -1)"), 'index out of range: -1');
    assert.equal(error("'tacocat'.substring(-1)"), 'index out of range: -1');
    assert.equal(error("'tacocat'.substring(2, 1)"), 'invalid substring range. start: 2, end: 1');
    assert.equal(error("'👑'.substring(0, 2)"), 'index out of range: 2');
  });
});
