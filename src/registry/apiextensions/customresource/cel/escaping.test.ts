import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeName } from './escaping.js';

describe('escapeName', () => {
  it("spells out what a CEL identifier cannot hold, as kube's Escape does", () => {
    const cases: [string, string][] = [
      ['a.a', 'a__dot__a'],
      ['a-a', 'a__dash__a'],
      ['a__a', 'a__underscores__a'],
      ['a.-/__a', 'a__dot____dash____slash____underscores__a'],
      ['a._a', 'a__dot___a'],
      ['a__.__a', 'a__underscores____dot____underscores__a'],
      ['a___a', 'a__underscores___a'],
      ['a____a', 'a__underscores____underscores__a'],
      ['a__dot__a', 'a__underscores__dot__underscores__a'],
      ['-lead', '__dash__lead'],
      ['namespace', '__namespace__'],
      ['true', '__true__'],
      ['while', '__while__'],
      ['has', 'has'],
      ['exists_one', 'exists_one'],
      ['_private', '_private'],
      ['camelCase9', 'camelCase9'],
    ];
    for (const [name, escaped] of cases) assert.equal(escapeName(name), escaped, name);
  });

  it('leaves out names rules cannot use', () => {
    for (const name of ['@', '1up', '👑', '', 'a b', 'é']) assert.equal(escapeName(name), undefined, name);
  });
});
