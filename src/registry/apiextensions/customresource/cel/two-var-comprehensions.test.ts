import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { evaluateCel } from '../../testing/evaluate-cel.js';
import { compileCustomResourceRules } from './compile.js';
import { loadCel } from './load.js';

// The examples of cel-go's ext.TwoVarComprehensions documentation (ext/comprehensions.go).

const plain = (x: unknown): unknown =>
  x instanceof Map || (typeof x === 'object' && x !== null && 'keys' in x && 'get' in x)
    ? Object.fromEntries(x as ReadonlyMap<unknown, unknown>)
    : typeof x === 'object' && x !== null && Symbol.iterator in x
      ? [...(x as Iterable<unknown>)]
      : x;

describe('CEL two-variable comprehensions', () => {
  it("evaluates cel-go's examples", async () => {
    const cases: [string, unknown][] = [
      ['[1, 2, 3].all(i, j, i < j)', true],
      ["{'hello': 'world', 'taco': 'taco'}.all(k, v, k != v)", false],
      ["{'h': ['hello', 'hi'], 'j': ['joke', 'jog']}.all(k, vals, vals.all(v, v.startsWith(k)))", true],
      [
        "{'greeting': 'hello', 'farewell': 'goodbye'}.exists(k, v, k.startsWith('good') || v.endsWith('bye'))",
        true,
      ],
      ['[1, 2, 4, 8, 16].exists(i, v, v == 1024 && i == 10)', false],
      ['[1, 2, 1, 3, 1, 4].existsOne(i, v, i == 1 || v == 1)', false],
      ['[1, 1, 2, 2, 3, 3].existsOne(i, v, i == 2 && v == 2)', true],
      ["{'i': 0, 'j': 1, 'k': 2}.existsOne(i, v, i == 'l' || v == 1)", true],
      ['[1, 2, 3].exists_one(i, v, v == 2)', true],
      ['[1, 2, 3].transformList(indexVar, valueVar, (indexVar * valueVar) + valueVar)', [1n, 4n, 9n]],
      [
        '[1, 2, 3].transformList(indexVar, valueVar, indexVar % 2 == 0, (indexVar * valueVar) + valueVar)',
        [1n, 9n],
      ],
      ["{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(k, _, k)", ['greeting', 'farewell']],
      ["{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(_, v, v)", ['hello', 'goodbye']],
      [
        '[1, 2, 3].transformMap(indexVar, valueVar, (indexVar * valueVar) + valueVar)',
        { 0: 1n, 1: 4n, 2: 9n },
      ],
      [
        '[1, 2, 3].transformMap(indexVar, valueVar, indexVar % 2 == 0, (indexVar * valueVar) + valueVar)',
        { 0: 1n, 2: 9n },
      ],
      ["{'greeting': 'hello'}.transformMap(k, v, v + '!')", { greeting: 'hello!' }],
      [
        "{'greeting': 'hello', 'farewell': 'goodbye'}.transformMapEntry(k, v, {v: k})",
        { hello: 'greeting', goodbye: 'farewell' },
      ],
      [
        "{'greeting': 'aloha', 'farewell': 'aloha'}.transformMapEntry(k, v, {v: k})",
        'error: insert failed: key aloha already exists',
      ],
      // Inner variables shadow outer ones of the same name.
      ['[[1, 2], [3]].all(i, v, v.all(i, v, v > i))', true],
      ['[10, 20].transformList(i, v, [i, v].exists(v, v == 20))', [false, true]],
    ];
    for (const [expr, want] of cases) assert.deepEqual(plain(await evaluateCel(expr)), want, expr);
  });

  it("refuses cel-go's invalid variables", async () => {
    const { parse } = await loadCel();
    assert.throws(() => parse('[1].all(k, k, true)'), /duplicate variable name: k/);
    assert.throws(() => parse('[1].all(x, 1, true)'), /argument must be a simple name/);
    assert.throws(() => parse('[1].all(@result, v, true)'), /./);
    assert.throws(
      () => parse('[1].all(__result__, v, true)'),
      /iteration variable overwrites accumulator variable/,
    );
  });

  it('is there for CRD rules, typed and costed from the schema', async () => {
    const schema = (rule: string): JSONSchemaProps => ({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            ports: {
              type: 'array',
              maxItems: 16,
              items: { type: 'object', properties: { port: { type: 'integer' } } },
            },
          },
          'x-kubernetes-validations': [{ rule, message: 'ports ascend' }],
        },
      },
    });
    const ascending = 'self.ports.all(i, p, i == 0 || p.port > self.ports[i - 1].port)';
    const { errors, validator } = await compileCustomResourceRules(schema(ascending));
    assert.deepEqual(errors, []);
    assert.ok(validator !== undefined);
    assert.deepEqual(validator.validate({ spec: { ports: [{ port: 1 }, { port: 2 }] } }, undefined), []);
    assert.deepEqual(
      validator.validate({ spec: { ports: [{ port: 2 }, { port: 1 }] } }, undefined).map((e) => e.error()),
      ['spec: Invalid value: "object": ports ascend'],
    );
    const undefinedField = await compileCustomResourceRules(schema('self.ports.all(i, p, p.nope > i)'));
    assert.match(undefinedField.errors.map((e) => e.detail).join('\n'), /undefined field 'nope'/);
  });
});
