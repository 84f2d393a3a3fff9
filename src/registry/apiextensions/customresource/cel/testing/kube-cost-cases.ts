// Test data: the actual costs kube's CEL cost tests expect of expressions over typed values.
import type { JSONSchemaProps } from '../../../../../api/apiextensions/v1/json-schema-props.js';

const int: JSONSchemaProps = { type: 'integer' };
const num: JSONSchemaProps = { type: 'number' };
const str: JSONSchemaProps = { type: 'string' };
const bool: JSONSchemaProps = { type: 'boolean' };
const byte: JSONSchemaProps = { type: 'string', format: 'byte' };
const listOf = (items: JSONSchemaProps): JSONSchemaProps => ({ type: 'array', items });
const setOf = (items: JSONSchemaProps): JSONSchemaProps => ({
  type: 'array',
  'x-kubernetes-list-type': 'set',
  items,
});
const object = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({
  type: 'object',
  properties,
});
/** kube's objs() and schemas(): values and schemas of properties val1, val2, … */
const vals = (...values: unknown[]): Record<string, unknown> =>
  Object.fromEntries(values.map((v, i) => [`val${String(i + 1)}`, v]));
const valSchemas = (...schemas: JSONSchemaProps[]): JSONSchemaProps =>
  object(Object.fromEntries(schemas.map((s, i) => [`val${String(i + 1)}`, s])));

// The actual costs kube's own tests expect (apiextensions-apiserver pkg/apiserver/schema/cel/
// validation_test.go, TestCelCostStability's expectCost), each expression true of its value.
export const kubeCostCases: { value: unknown; schema: JSONSchemaProps; costs: Record<string, number> }[] = [
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
  {
    value: vals('Rook takes 👑', 'Rook takes 👑'),
    schema: valSchemas(str, str),
    costs: {
      "self.val1.startsWith('Rook')": 4,
      "!self.val1.startsWith('knight')": 5,
      "self.val1.matches('^[^0-9]*$')": 8,
      "!self.val1.matches('^[0-9]*$')": 7,
      'type(self.val1) == string': 4,
      'size(self.val1) == 12': 4,
      "self.val1.charAt(3) == 'k'": 4,
      "self.val1.indexOf('o') == 1": 4,
      "self.val1.indexOf('o', 2) == 2": 4,
      "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'": 7,
      "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'": 7,
      "self.val1.split(' ') == ['Rook', 'takes', '👑']": 6,
      "self.val1.split(' ', 2) == ['Rook', 'takes 👑']": 6,
      "self.val1.substring(5) == 'takes 👑'": 5,
      "self.val1.substring(0, 4) == 'Rook'": 5,
      "self.val1.substring(4, 10).trim() == 'takes'": 6,
      "self.val1.upperAscii() == 'ROOK TAKES 👑'": 6,
      "self.val1.lowerAscii() == 'rook takes 👑'": 6,
      'self.val1.lowerAscii() == self.val1.lowerAscii()': 10,
      "'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')]) == '1 abc 1.000000 60s 2000-01-01T00:00:00Z'": 6,
      "'%o %o %o'.format([7, 8, 9]) == '7 10 11'": 2,
      "'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'": 3,
    },
  },
  {
    value: vals('QUI=', 'QUI='),
    schema: valSchemas(byte, byte),
    costs: {
      'self.val1 == self.val2': 5,
      "self.val1 == b'AB'": 3,
      'type(self.val1) == bytes': 4,
      'size(self.val1) == 2': 4,
    },
  },
  {
    value: vals(true, true, false, false),
    schema: valSchemas(bool, bool, bool, bool),
    costs: { 'self.val1 != self.val4': 5, 'type(self.val1) == bool': 4 },
  },
  {
    value: vals([1, 2, 3], [1, 2, 3]),
    schema: valSchemas(listOf(int), listOf(int)),
    costs: {
      '1 in self.val1': 5,
      'self.val2[0] in self.val1': 8,
      '!(0 in self.val1)': 6,
      'self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]': 6,
      'self.val1 + [4, 5] == [1, 2, 3, 4, 5]': 4,
      'has(self.val1)': 1,
      'has(self.val1) && has(self.val2)': 2,
    },
  },
  {
    // Sets compare without order and concatenate as unions.
    value: vals(
      ['a', 'b', 'c'],
      ['a', 'c', 'b'],
      Array.from({ length: 1000 }, (_, i) => i + 1),
    ),
    schema: valSchemas(setOf(str), setOf(str), setOf(int)),
    costs: {
      "self.val1 == ['c', 'b', 'a']": 3,
      'self.val1 == self.val2': 5,
      "'a' in self.val1": 5,
      'self.val2[0] in self.val1': 8,
      "!('x' in self.val1)": 6,
      "self.val1 + self.val2 == ['a', 'b', 'c']": 6,
      "self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']": 4,
      "sets.contains(self.val1, ['a'])": 6,
      "sets.equivalent(self.val1, ['a', 'b', 'c'])": 21,
      "sets.intersects(self.val1, ['a'])": 6,
      'sets.contains(self.val3, [1])': 1003,
      '!sets.equivalent(self.val3, [1, 2, 3])': 6004,
      'sets.intersects(self.val3, [1])': 1003,
    },
  },
  {
    // Map lists compare by key and concatenate as merges, the right operand's items winning.
    value: {
      objs: [
        [
          { k: 'a', v: '1' },
          { k: 'b', v: '2' },
        ],
        [
          { k: 'b', v: '2' },
          { k: 'a', v: '1' },
        ],
        [
          { k: 'b', v: '3' },
          { k: 'a', v: '1' },
        ],
        [{ k: 'c', v: '4' }],
      ],
    },
    schema: object({
      objs: listOf({
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['k'],
        items: object({ k: str, v: str }),
      }),
    }),
    costs: {
      'self.objs[0] == self.objs[1]': 7,
      'self.objs[0] + self.objs[2] == self.objs[2]': 11,
      'self.objs[2] + self.objs[0] == self.objs[0]': 11,
      'self.objs[0] == [self.objs[0][0], self.objs[0][1]]': 22,
      'self.objs[0] == [self.objs[0][1], self.objs[0][0]]': 22,
      'self.objs[2] + [self.objs[0][0], self.objs[0][1]] == self.objs[0]': 26,
      'size(self.objs[0] + [self.objs[3][0]]) == 3': 20,
    },
  },
  {
    value: vals({ k1: 'a', k2: 'b' }, { k2: 'b', k1: 'a' }),
    schema: valSchemas(
      { type: 'object', additionalProperties: str },
      { type: 'object', additionalProperties: str },
    ),
    costs: {
      'self.val1 == self.val2': 5,
      "'k1' in self.val1": 3,
      "!('k3' in self.val1)": 4,
      "self.val1 == {'k1': 'a', 'k2': 'b'}": 3,
    },
  },
  {
    value: { val: { b: 1, d: 2 } },
    schema: object({ val: { type: 'object', additionalProperties: int } }),
    costs: {
      "!('a' in self.val)": 4,
      "'b' in self.val": 3,
      '!has(self.val.a)': 3,
      'has(self.val.b)': 2,
      'self.val.all(k, self.val[k] > 0)': 17,
      'self.val.exists_one(k, self.val[k] == 2)': 14,
      '!self.val.exists_one(k, self.val[k] > 0)': 17,
      'size(self.val) == 2': 4,
      'size(self.val.filter(k, self.val[k] > 1)) == 1': 26,
    },
  },
  {
    value: { a: { b: 1, d: null }, a1: { b1: { c1: 4 } }, a3: {} },
    schema: object({
      a: object({ b: int, c: int, d: { ...int, nullable: true } }),
      a1: object({ b1: object({ c1: int }), d2: object({ e2: int }) }),
    }),
    costs: {
      'has(self.a.b)': 2,
      'has(self.a1.b1.c1)': 3,
      '!(has(self.a1.d2) && has(self.a1.d2.e2))': 3,
      '!has(self.a1.d2)': 3,
    },
  },
  {
    value: vals(10, 10.0, 10.49, 10.5, true, '10', 'MTA='),
    schema: valSchemas(int, num, num, num, bool, str, byte),
    costs: {
      'int(self.val2) == self.val1': 6,
      'double(self.val1) == self.val2': 6,
      'bytes(self.val6) == self.val7': 6,
      'string(self.val1) == self.val6': 6,
      "string(self.val4) == '10.5'": 4,
      'string(self.val7) == self.val6': 6,
    },
  },
  {
    value: { enumStr: 'Pending' },
    schema: object({ enumStr: { type: 'string', enum: ['Pending', 'Available'] } }),
    costs: { "self.enumStr == 'Pending'": 3, "self.enumStr in ['Pending', 'Available']": 2 },
  },
  {
    value: vals(5, 10.0),
    schema: valSchemas(int, num),
    costs: {
      'double(self.val1) < self.val2': 6,
      'self.val1 < int(self.val2)': 6,
      'double(5) < 10.0': 1,
      '5 < int(10.0)': 1,
      'double(self.val1) < 10.0': 4,
    },
  },
];
