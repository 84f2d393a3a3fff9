import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactGoJSON } from './go-compact.js';

const compact = (text: string): string | undefined => compactGoJSON(Buffer.from(text, 'utf8'));

describe('compactGoJSON (encoding/json compact of a Marshaler’s bytes)', () => {
  const cases: { name: string; input: string; want: string }[] = [
    {
      name: 'whitespace between tokens removed, inside strings kept',
      input: ' {\n\t"a" : [ 1 ,\r\n 2 ] ,\n  "b c" : " x  y\\t" }\n',
      want: '{"a":[1,2],"b c":" x  y\\t"}',
    },
    {
      name: 'member order as sent: index keys not sorted',
      input: '{"data": {"9": "a", "10": "b", "z": 1, "a": 2}}',
      want: '{"data":{"9":"a","10":"b","z":1,"a":2}}',
    },
    {
      name: 'number text as sent',
      input: '[1.50, 1e3, 1E+3, -0, 0.000, 12345678901234567890, 2.5e-10]',
      want: '[1.50,1e3,1E+3,-0,0.000,12345678901234567890,2.5e-10]',
    },
    {
      name: 'escapes as sent, a quote or backslash in a string does not end it',
      input: '{"s": "\\u0041\\/\\"  \\\\", "t" : "\\ud83d\\ude00 é"}',
      want: '{"s":"\\u0041\\/\\"  \\\\","t":"\\ud83d\\ude00 é"}',
    },
    {
      name: 'HTML characters and the line separators escaped as Go writes them',
      input: '{"h": "<a href=\\"x\\">&amp;</a>", "l": "a\u2028b\u2029c"}',
      want: '{"h":"\\u003ca href=\\"x\\"\\u003e\\u0026amp;\\u003c/a\\u003e","l":"a\\u2028b\\u2029c"}',
    },
    {
      name: 'nested structures, empty ones included',
      input: '[ { "a" : { "b" : [ [ ], { } , [ { "c" : null } ] ] } }, true, false ]',
      want: '[{"a":{"b":[[],{},[{"c":null}]]}},true,false]',
    },
    {
      name: 'a top-level scalar, trailing whitespace gone',
      input: '  "x y"  \n',
      want: '"x y"',
    },
    {
      name: 'already compact text comes back as it is',
      input: '{"metadata":{"labels":{"app":"web"}},"spec":{"replicas":3}}',
      want: '{"metadata":{"labels":{"app":"web"}},"spec":{"replicas":3}}',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(compact(c.input), c.want);
    });
  }

  it('refuses what Go’s scanner refuses: the encoder fails on such bytes', () => {
    for (const input of [
      '',
      '   ',
      'apiVersion: v1\nkind: ConfigMap\n',
      '{"a":1} {"b":2}',
      '{"a":1,}',
      '[01]',
      '{"a":"tab\there"}',
      '\ufeff{}',
      "{'a':1}",
      'NaN',
    ]) {
      assert.equal(compact(input), undefined, JSON.stringify(input));
    }
  });

  it('takes nesting as deep as Go’s scanner does, and no deeper', () => {
    const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    assert.equal(compact(nested(10_000)), nested(10_000));
    assert.equal(compact(nested(10_001)), undefined);
  });

  it('reads a slice of a larger buffer by its own bounds', () => {
    const whole = Buffer.from('xx{ "a" : 1 }yy');
    assert.equal(compactGoJSON(whole.subarray(2, whole.length - 2)), '{"a":1}');
  });
});
