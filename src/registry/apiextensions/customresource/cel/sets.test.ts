import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileCustomResourceRules } from './compile.js';
import { evaluateCel } from '../../testing/evaluate-cel.js';

// cel-go's ext/sets_test.go cases.

describe("cel-go's sets extension", () => {
  it('tells containment, equivalence and intersection, with CEL equality', async () => {
    const cases: [string, boolean][] = [
      ['sets.contains([], [])', true],
      ['sets.contains([1, 2, 3], [2, 3])', true],
      ['sets.contains([1, 2], [3])', false],
      ['sets.contains([1], [1.0, 1u])', true],
      ['sets.contains([[1], [2, 3]], [[2, 3]])', true],
      ['sets.equivalent([1, 2, 2], [2, 1])', true],
      ['sets.equivalent([1, 2], [1, 2, 3])', false],
      ["sets.intersects(['a'], ['b', 'a'])", true],
      ['sets.intersects([], [1])', false],
      ['sets.intersects([1], [])', false],
    ];
    for (const [expr, want] of cases) assert.equal(await evaluateCel(expr), want, expr);
  });

  it('is there for CRD rules', async () => {
    const { errors, validator } = await compileCustomResourceRules({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { modes: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 8 } } },
          'x-kubernetes-validations': [
            { rule: "sets.contains(['read', 'write'], self.modes)", message: 'unknown mode' },
          ],
        },
      },
    });
    assert.deepEqual(errors, []);
    assert.ok(validator !== undefined);
    assert.deepEqual(validator.validate({ spec: { modes: ['read'] } }, undefined), []);
    assert.deepEqual(
      validator.validate({ spec: { modes: ['read', 'exec'] } }, undefined).map((e) => e.error()),
      ['spec: Invalid value: "object": unknown mode'],
    );
  });
});
