import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { loadCel } from './load.js';
import { costLimitExceeded, type MeteredEvaluation } from './metering.js';
import { perCallLimit } from './runtime-cost.js';
import { kubeCostCases } from './testing/kube-cost-cases.js';
import { toCel } from './values.js';

const lib = await loadCel();

function evaluate(source: string, self: { value: unknown; schema: JSONSchemaProps }): MeteredEvaluation {
  return lib.plan(lib.parse(source))({ self: toCel(self.value, self.schema) });
}

const int: JSONSchemaProps = { type: 'integer' };
const str: JSONSchemaProps = { type: 'string' };
const listOf = (items: JSONSchemaProps): JSONSchemaProps => ({ type: 'array', items });
const object = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({
  type: 'object',
  properties,
});

const ints = (n: number): { value: unknown; schema: JSONSchemaProps } => ({
  value: { l: Array.from({ length: n }, (_, i) => i) },
  schema: object({ l: listOf(int) }),
});

describe('metered CEL evaluation', () => {
  it("charges what cel-go charges in kube's cost tests", () => {
    for (const { value, schema, costs } of kubeCostCases)
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
    // startsWith: a tenth of the string tested, as kube 1.33's cel-go charges it.
    assert.equal(evaluate("self.s.startsWith('aaaaaaaaaaa')", s).cost, 2 + 100_000);
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
