import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { evaluateCel } from '../../testing/evaluate-cel.js';
import { compileCustomResourceRules } from './compile.js';

const withRule = (rule: string): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-validations': [{ rule }],
    },
  },
});

describe('CEL parsing beyond the parser', () => {
  it('refuses nesting deeper than the check and the evaluation take, as a compile error', async () => {
    const errorsOf = async (rule: string): Promise<string[]> =>
      (await compileCustomResourceRules(withRule(rule))).errors.map((e) => e.detail.split('\n')[0] ?? '');
    // A chain of selects or of one operator, which cel-go's parser takes: up to a depth of 1,000.
    assert.deepEqual(await errorsOf(`self${'.b'.repeat(900)} == 1`), []);
    assert.deepEqual(await errorsOf(`self${'.b'.repeat(20000)} == 1`), [
      'compilation failed: ERROR: <input>:1:1: Syntax error: expression recursion limit exceeded: 1000',
    ]);
    assert.deepEqual(await errorsOf(`self.x${' + 1'.repeat(20000)} > 0`), [
      'compilation failed: ERROR: <input>:1:1: Syntax error: expression recursion limit exceeded: 1000',
    ]);
    // Nesting the parser itself recurses on: cel-go stops at 250 levels.
    assert.deepEqual(await errorsOf(`${'('.repeat(20000)}true${')'.repeat(20000)}`), [
      'compilation failed: ERROR: <input>:1:1: Syntax error: expression recursion limit exceeded: 250',
    ]);
  });

  it('expands a chain of optMap linearly, its target bound once', async () => {
    assert.equal(await evaluateCel(`optional.of(1)${'.optMap(v, v + 1)'.repeat(200)}.value()`), 201n);
    assert.equal(
      await evaluateCel(`optional.none()${'.optFlatMap(v, optional.of(v))'.repeat(100)}.hasValue()`),
      false,
    );
  });
});
