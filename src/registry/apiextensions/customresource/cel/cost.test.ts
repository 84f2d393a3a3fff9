import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { estimateCost } from './cost.js';
import { declCelType } from './cost-types.js';
import { schemaDeclType } from './decl-type.js';
import { loadCel } from './load.js';

// The figures are kube 1.33's (apiextensions-apiserver's compilation_test.go TestCostEstimation and
// celcoststability_test.go TestCelEstimatedCostStability), worked through cel-go's estimator.

/** The estimated maximum cost of `rule` on a node of `schema` (not a resource's root). */
async function maxCost(schema: JSONSchemaProps, rule: string): Promise<bigint> {
  const { cel } = await loadCel();
  const root = schemaDeclType(schema, false);
  const self = declCelType(root);
  const vars = new Map([
    ['self', self],
    ['oldSelf', self],
  ]);
  return estimateCost(cel.parse(rule), { root, vars }).max;
}

const str = (extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({ type: 'string', ...extra });
const list = (items: JSONSchemaProps, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'array',
  items,
  ...extra,
});
const map = (values: JSONSchemaProps, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'object',
  additionalProperties: values,
  ...extra,
});
const number: JSONSchemaProps = { type: 'number' };
const object = (properties: Record<string, JSONSchemaProps>, required: string[] = []): JSONSchemaProps => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
});

describe('estimateCost', () => {
  it('charges an all() once per item a list can hold, bounded by maxItems or the request size', async () => {
    const cases: [JSONSchemaProps, bigint, number, bigint][] = [
      [number, 4718591n, 10, 32n],
      [str(), 3145727n, 20, 62n],
      [{ type: 'boolean' }, 1887437n, 5, 17n],
      [str({ format: 'duration' }), 2359295n, 5, 17n],
      [str({ format: 'date' }), 725936n, 15, 47n],
      [str({ format: 'date-time' }), 428963n, 25, 77n],
      [{ 'x-kubernetes-int-or-string': true }, 4718591n, 10, 32n],
      [object({ required: str(), optional: str() }, ['required']), 555128n, 50, 152n],
    ];
    for (const [items, unbounded, maxItems, bounded] of cases) {
      assert.equal(await maxCost(list(items), 'self.all(x, true)'), unbounded, JSON.stringify(items));
      assert.equal(
        await maxCost(list(items, { maxItems }), 'self.all(x, true)'),
        bounded,
        JSON.stringify(items),
      );
    }
  });

  it('charges a map by the properties it can hold', async () => {
    assert.equal(await maxCost(map(number), 'self.all(x, true)'), 1348169n);
    assert.equal(await maxCost(map(number, { maxProperties: 10 }), 'self.all(x, true)'), 32n);
    assert.equal(await maxCost(map(str()), 'self.all(x, true)'), 1179647n);
    assert.equal(await maxCost(map(str(), { maxProperties: 3 }), 'self.all(x, true)'), 11n);
    assert.equal(await maxCost(map({ type: 'boolean' }), 'self.all(x, true)'), 943718n);
    assert.equal(await maxCost(map(str({ format: 'duration' })), 'self.all(x, true)'), 1048577n);
    assert.equal(await maxCost(map(str({ format: 'date' })), 'self.all(x, true)'), 524288n);
    assert.equal(await maxCost(map(str({ format: 'date-time' })), 'self.all(x, true)'), 349526n);
  });

  it('charges string functions by the string lengths maxLength allows (4 bytes a character)', async () => {
    assert.equal(await maxCost(str(), "self.contains('test')"), 314574n);
    assert.equal(await maxCost(str({ maxLength: 10 }), "self.contains('test')"), 5n);
    assert.equal(await maxCost(str(), "self.startsWith('test')"), 2n);
    assert.equal(await maxCost(str({ maxLength: 10 }), "self.endsWith('test')"), 2n);
    assert.equal(await maxCost(str(), 'self.matches("x")'), 314574n);
    assert.equal(await maxCost(str({ maxLength: 50 }), 'self.matches("x")'), 22n);
    assert.equal(await maxCost(str(), '"".matches("(((((((((())))))))))[0-9]")'), 7n);
    assert.equal(await maxCost(str(), 'self.matches("")'), 1n);
    assert.equal(await maxCost(str(), 'size(self + "hello") > size("hello")'), 314578n);
    assert.equal(await maxCost(str({ maxLength: 4 }), 'size(self + "hello") > size("hello")'), 7n);
    assert.equal(await maxCost(str({ enum: ['A', 'B', 'C', 'LongValue'] }), "self.contains('A')"), 2n);
    assert.equal(await maxCost(str({ enum: ['A'], maxLength: 1000 }), "self.contains('A')"), 401n);
  });

  it('multiplies nested loops', async () => {
    assert.equal(await maxCost(list(number, { maxItems: 10 }), 'self.all(x, self.all(y, true))'), 352n);
    assert.equal(
      await maxCost(list(number, { maxItems: 10 }), 'self.all(x, self.all(y, self.all(z, true)))'),
      3552n,
    );
  });

  it('sizes map keys at nothing and values by their schema', async () => {
    const rule = 'self.all(x, x.contains(self[x]))';
    assert.equal(await maxCost(map(str()), rule), 2752507n);
    assert.equal(await maxCost(map(str({ maxLength: 10 }), { maxProperties: 10 }), rule), 72n);
    const nested = list(map(object({ required: str() }, ['required'])));
    assert.equal(await maxCost(nested, 'self.all(x, x["y"].required == "z")'), 7340027n);
    const bounded = list(
      map(object({ required: str({ maxLength: 10 }) }, ['required']), { maxProperties: 10 }),
      {
        maxItems: 10,
      },
    );
    assert.equal(await maxCost(bounded, 'self.all(x, x["y"].required == "z")'), 72n);
    assert.equal(await maxCost(map(str({ format: 'date-time' })), 'self["a"] == self["b"]'), 8n);
    assert.equal(await maxCost(map(str({ format: 'duration' })), 'self["a"] == self["b"]'), 8n);
    assert.equal(await maxCost(map({ type: 'integer' }), 'oldSelf.size() == self.size()'), 5n);
    assert.equal(await maxCost(list(str()), 'self[1] == self[1]'), 314577n);
    assert.equal(await maxCost(list(str(), { maxItems: 8 }), 'self[1] == self[1]'), 314577n);
  });

  it("charges kube's library functions as kube does", async () => {
    assert.equal(await maxCost(str(), "self.find('[0-9]+') == ''"), 629147n);
    assert.equal(await maxCost(str({ maxLength: 10 }), "self.find('[0-9]+') == ''"), 11n);
    assert.equal(await maxCost(str(), "self.lowerAscii() == 'lower!'"), 314575n);
    assert.equal(await maxCost(str({ maxLength: 10 }), "self.lowerAscii() == 'lower!'"), 6n);
    const replace = (s: JSONSchemaProps): JSONSchemaProps =>
      object({ str: s, before: str({ maxLength: 2 }), after: str({ maxLength: 4 }) });
    const replaceRule = "self.str.replace(self.before, self.after) == 'does not matter'";
    assert.equal(await maxCost(replace(str()), replaceRule), 629154n);
    assert.equal(await maxCost(replace(str({ maxLength: 4 })), replaceRule), 12n);
    const split = (s: JSONSchemaProps): JSONSchemaProps => object({ str: s, separator: str() });
    assert.equal(await maxCost(split(str()), 'self.str.split(self.separator) == []'), 629160n);
    assert.equal(await maxCost(split(str({ maxLength: 10 })), 'self.str.split(self.separator) == []'), 22n);
    assert.equal(await maxCost(list(str()), "self.join(' ') == 'aa bb'"), 329853068905n);
    assert.equal(
      await maxCost(list(str({ maxLength: 10 }), { maxItems: 10 }), "self.join(' ') == 'aa bb'"),
      43n,
    );
    assert.equal(await maxCost(list(str()), 'self.isSorted() == true'), 329854432052n);
    assert.equal(
      await maxCost(list(str({ maxLength: 10 }), { maxItems: 10 }), 'self.isSorted() == true'),
      52n,
    );
  });

  it('gives the figures of kube’s estimated cost stability test', async () => {
    const ints = object({ val1: { type: 'integer' }, val6: { type: 'integer' } });
    assert.equal(await maxCost(ints, 'self.val1 == self.val6'), 4n);
    assert.equal(await maxCost(ints, 'double(5) < 10.0'), 2n);
    assert.equal(await maxCost(ints, 'type(self.val1) == int'), 4n);
    const strs = object({ val1: str() });
    assert.equal(await maxCost(strs, "self.val1.startsWith('Rook')"), 3n);
    assert.equal(await maxCost(strs, "self.val1.matches('^[^0-9]*$')"), 943721n);
    assert.equal(await maxCost(strs, "self.val1.indexOf('o') == 1"), 314576n);
    assert.equal(await maxCost(strs, "self.val1.charAt(3) == 'k'"), 4n);
    const intList = object({ val1: list({ type: 'integer' }) });
    assert.equal(await maxCost(intList, '1 in self.val1'), 1572865n);
    assert.equal(await maxCost(intList, 'self.val1.all(k, size(self.val1) > 0)'), 11010044n);
    assert.equal(await maxCost(intList, 'self.val1 + [4, 5] == [1, 2, 3, 4, 5]'), 24n);
    assert.equal(await maxCost(intList, 'size(self.val1.filter(k, size(self.val1) > 1)) == 1'), 26738686n);
    const enumStr = object({ enumStr: str({ enum: ['Pending', 'Available'] }) });
    assert.equal(await maxCost(enumStr, "self.enumStr in ['Pending', 'Available']"), 14n);
    const intMap = object({ val: map({ type: 'integer' }), val1: map({ type: 'integer' }) });
    assert.equal(await maxCost(intMap, 'self.val.all(k, self.val[k] > 0)'), 3595115n);
    assert.equal(await maxCost(intMap, "'k1' in self.val1"), 3n);
    const listMap = object({
      listMap: list(object({ k: str(), v: str(), v2: str() }), { 'x-kubernetes-list-type': 'map' }),
    });
    assert.equal(await maxCost(listMap, "self.listMap.exists(m, m.k.endsWith('1'))"), 7340028n);
    assert.equal(await maxCost(listMap, "self.listMap.map(m, m.v).exists(v, v == 'b1')"), 19922939n);
    const times = object({ a: str({ format: 'date-time' }), b: str({ format: 'date-time' }) });
    assert.equal(await maxCost(times, 'self.a < self.b'), 5n);
    const addresses = object({ a: str({ maxLength: 10 }), b: str({ maxLength: 10 }) });
    assert.equal(await maxCost(addresses, 'ip.isCanonical(self.a)'), 10n);
    assert.equal(await maxCost(addresses, 'cidr(self.a).containsIP(self.b)'), 16n);
    const dashed = object({ 'my-name': str({ maxLength: 10 }) });
    assert.equal(await maxCost(dashed, "self.my__dash__name.contains('a')"), 6n);
    const anyType = object({});
    assert.equal(await maxCost(anyType, 'type(self) == type(self)'), 1844674407370955268n);
  });
});
