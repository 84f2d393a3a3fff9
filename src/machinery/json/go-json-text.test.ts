import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeGoHTML, goJSONText } from './go-json-text.js';
import { inSortedMemberOrder, isArrayIndexKey } from './sorted-members.js';

describe('goJSONText (Go json.Marshal text)', () => {
  // Each input built by JSON.parse, as a decoded request body or stored object is.
  const cases: { name: string; input: string; want: string; pretty?: string }[] = [
    {
      name: 'a map with array-index keys: sorted as strings, not listed first in numeric order',
      input: '{"data":{"9":"a","10":"b","a":"c","1":"d"}}',
      want: '{"data":{"1":"d","10":"b","9":"a","a":"c"}}',
      pretty: '{\n  "data": {\n    "1": "d",\n    "10": "b",\n    "9": "a",\n    "a": "c"\n  }\n}',
    },
    {
      name: 'index keys among others: "2" < "A" < "_" < "a" (bytes), struct members keep their order',
      input: '{"kind":"ConfigMap","apiVersion":"v1","data":{"a":"1","_":"2","A":"3","2":"4"},"x":[]}',
      want: '{"kind":"ConfigMap","apiVersion":"v1","data":{"2":"4","A":"3","_":"2","a":"1"},"x":[]}',
    },
    {
      name: 'nested objects and lists: each object with an index key sorted, every other one left as it is',
      input: '{"b":[{"20":1,"3":{"y":1,"x":2}},{"11":null,"100":[]}],"a":{}}',
      want: '{"b":[{"20":1,"3":{"y":1,"x":2}},{"100":[],"11":null}],"a":{}}',
      pretty:
        '{\n  "b": [\n    {\n      "20": 1,\n      "3": {\n        "y": 1,\n        "x": 2\n      }\n    },\n' +
        '    {\n      "100": [],\n      "11": null\n    }\n  ],\n  "a": {}\n}',
    },
    {
      name: 'keys that start with a digit but are not indexes stay where they were set',
      input: '{"1a":1,"01":2,"4294967295":3,"-1":4}',
      want: '{"1a":1,"01":2,"4294967295":3,"-1":4}',
    },
    {
      name: 'one index key among them: the whole object sorted',
      input: '{"1a":1,"01":2,"4294967295":3,"-1":4,"0":5}',
      want: '{"-1":4,"0":5,"01":2,"1a":1,"4294967295":3}',
    },
    {
      name: 'text without such a key is JSON.stringify’s, HTML characters escaped',
      input: '{"z":"<a>&","a":{"b":[1,"{\\"9\\":1}"]}}',
      want: '{"z":"\\u003ca\\u003e\\u0026","a":{"b":[1,"{\\"9\\":1}"]}}',
    },
    {
      name: 'HTML characters escaped in sorted text too',
      input: '{"2":"<","10":">"}',
      want: '{"10":"\\u003e","2":"\\u003c"}',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const value: unknown = JSON.parse(c.input);
      assert.equal(goJSONText(value), c.want);
      if (c.pretty !== undefined) assert.equal(goJSONText(value, true), c.pretty);
      // Whatever the order, the text is the same JSON.
      assert.deepEqual(JSON.parse(goJSONText(value)), value);
    });
  }

  it('drops undefined members and functions, writes null for them in lists, calls toJSON', () => {
    const value = {
      '10': undefined,
      '9': { when: new Date(0), f: () => 1, list: [undefined, 1] },
      '8': Number.NaN,
    };
    assert.equal(goJSONText(value), '{"8":null,"9":{"when":"1970-01-01T00:00:00.000Z","list":[null,1]}}');
    assert.equal(goJSONText(undefined), 'null');
  });
});

describe('escapeGoHTML', () => {
  it('escapes each character Go escapes, alone and among others, and leaves other text as it is', () => {
    const cases: [string, string][] = [
      ['"<"', '"\\u003c"'],
      ['">"', '"\\u003e"'],
      ['"&"', '"\\u0026"'],
      ['"\u2028"', '"\\u2028"'],
      ['"\u2029"', '"\\u2029"'],
      ['"a<b>c&d\u2028e\u2029f<"', '"a\\u003cb\\u003ec\\u0026d\\u2028e\\u2029f\\u003c"'],
      ['{"a":"b\\u003c","c":[1,2]}', '{"a":"b\\u003c","c":[1,2]}'],
    ];
    for (const [text, want] of cases) assert.equal(escapeGoHTML(text), want, text);
    const plain = '{"a":"b"}';
    assert.equal(escapeGoHTML(plain), plain);
  });
});

describe('isArrayIndexKey', () => {
  const cases: [string, boolean][] = [
    ['0', true],
    ['9', true],
    ['10', true],
    ['4294967294', true],
    ['4294967295', false],
    ['10000000000', false],
    ['01', false],
    ['-1', false],
    ['1.5', false],
    ['1e3', false],
    ['', false],
    ['a1', false],
  ];
  for (const [key, want] of cases) {
    it(`${JSON.stringify(key)} → ${String(want)}, as JavaScript orders it`, () => {
      assert.equal(isArrayIndexKey(key), want);
      // An index key set after another key is still listed first.
      const keys = Object.keys({ z: 1, [key]: 2 });
      assert.equal(keys[0] === key && key !== 'z', want);
    });
  }

  it('leaves a map whose other keys are sorted as it is (same object), sorts the rest', () => {
    const map = JSON.parse('{"b":{"10":1,"9":2,"a":3},"a":{"c":1,"2":1,"b":1}}') as Record<string, unknown>;
    const sorted = inSortedMemberOrder(map);
    assert.notEqual(sorted, map);
    assert.equal(sorted['b'], map['b']);
    assert.equal(goJSONText(sorted), '{"a":{"2":1,"b":1,"c":1},"b":{"10":1,"9":2,"a":3}}');
    assert.equal(inSortedMemberOrder(sorted), sorted);
  });
});
