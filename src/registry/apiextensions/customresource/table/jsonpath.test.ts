import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goFloatString, goJSONMarshal, goPrintValue } from './go-values.js';
import { findResults, parseJSONPath } from './jsonpath.js';
import { parseJSONPathTemplate } from './jsonpath-parser.js';

const data = {
  metadata: { name: 'a', labels: { app: 'web', 'app.kubernetes.io/name': 'dotted' } },
  spec: {
    replicas: 3,
    ratio: 0.5,
    paused: false,
    nothing: null,
    items: [
      { name: 'x', size: 1 },
      { name: 'y', size: 2 },
      { name: 'z', size: 3 },
    ],
    a: { b: 'nested' },
    'a.b': 'literal',
  },
  status: {
    conditions: [
      { type: 'Progressing', status: 'False' },
      { type: 'Ready', status: 'True' },
    ],
  },
};

const find = (path: string, options = { allowMissingKeys: true }): unknown[][] =>
  findResults(parseJSONPath(path), data, options);

describe('parseJSONPath', () => {
  it('parses the paths printer columns use', () => {
    assert.deepEqual(parseJSONPath('.spec.replicas').root.nodes, [
      {
        type: 'list',
        nodes: [
          { type: 'field', name: 'spec' },
          { type: 'field', name: 'replicas' },
        ],
      },
    ]);
    const filter = parseJSONPath('.status.conditions[?(@.type=="Ready")].status').root.nodes[0];
    assert.ok(filter?.type === 'list');
    assert.deepEqual(filter.nodes[2], {
      type: 'filter',
      left: { type: 'list', nodes: [{ type: 'field', name: 'type' }] },
      right: { type: 'list', nodes: [{ type: 'text', text: 'Ready' }] },
      operator: '==',
    });
    for (const path of [
      '.spec.items[0].name',
      '.spec.items[*].name',
      '.spec.items[-1:]',
      '.spec.items[0,2].name',
      ".metadata.labels['app']",
      '.metadata.labels.app\\.kubernetes\\.io/name',
      '$.spec..name',
      '.spec.items[?(@.size>=2)]',
      '.spec.items[?(@.name)]',
      '.spec.items[?(@.size == 1.5)]',
    ]) {
      assert.doesNotThrow(() => parseJSONPath(path), path);
    }
  });

  it('keeps text outside braces in a template', () => {
    assert.deepEqual(parseJSONPathTemplate('n={.a}').nodes, [
      { type: 'text', text: 'n=' },
      { type: 'list', nodes: [{ type: 'field', name: 'a' }] },
    ]);
  });

  it('throws kube parser errors on bad syntax', () => {
    const cases: [string, string][] = [
      ['.spec.items[0', 'unterminated array'],
      ['.spec.items[?(@.a=="x"', 'unterminated filter'],
      ['.spec.items[?(@.a=="x")', 'unclosed array expect ]'],
      ['.spec.items[x]', 'invalid array index x'],
      ['.spec.items[-]', 'array index - is not a number'],
      ['.spec.a !', "unrecognized character in action: U+0021 '!'"],
      ['.spec "abc', 'unterminated quoted string'],
      ['.spec..a..b', ''],
      ['.spec....a', 'invalid multiple recursive descent'],
      ['.spec[?(@.a==1.2.3)]', 'cannot parse number 1.2.3'],
      ['.spec[?(@.a=="\\q")]', 'unquote string "\\q" error invalid syntax'],
    ];
    for (const [path, message] of cases) {
      if (message === '') {
        assert.doesNotThrow(() => parseJSONPath(path), path);
        continue;
      }
      assert.throws(
        () => parseJSONPath(path),
        { message: `invalid JSONPath ${JSON.stringify(path)}: ${message}` },
        path,
      );
    }
  });
});

describe('findResults', () => {
  it('follows fields of nested maps', () => {
    assert.deepEqual(find('.spec.replicas'), [[3]]);
    assert.deepEqual(find('.metadata.labels.app'), [['web']]);
    assert.deepEqual(find('.spec.a'), [[{ b: 'nested' }]]);
    assert.deepEqual(find('$.spec.paused'), [[false]]);
    assert.deepEqual(find('.spec.nothing'), [[null]]);
  });

  it('allows or refuses missing keys', () => {
    assert.deepEqual(find('.spec.missing.deeper'), [[]]);
    assert.throws(() => find('.spec.missing', { allowMissingKeys: false }), {
      message: 'missing is not found',
    });
  });

  it('indexes, slices, unions and wildcards arrays', () => {
    assert.deepEqual(find('.spec.items[0].name'), [['x']]);
    assert.deepEqual(find('.spec.items[-1].name'), [['z']]);
    assert.deepEqual(find('.spec.items[*].name'), [['x', 'y', 'z']]);
    assert.deepEqual(find('.spec.items[1:].size'), [[2, 3]]);
    assert.deepEqual(find('.spec.items[0,2].name'), [['x', 'z']]);
    assert.deepEqual(find(".spec.items[0]['name','size']"), [['x', 1]]);
    assert.deepEqual(find('.spec.a.*'), [['nested']]);
    assert.throws(() => find('.spec.items[5]'), { message: 'array index out of bounds: index 5, length 3' });
    assert.throws(() => find('.spec.a[0]'), { message: 'map[string]interface {} is not array or slice' });
  });

  it('treats a quoted key as kube does: dots split it, an escaped dot does not', () => {
    assert.deepEqual(find(".spec['a.b']"), [['nested']]);
    assert.deepEqual(find('.spec.a\\.b'), [['literal']]);
    assert.deepEqual(find(".metadata.labels['app']"), [['web']]);
  });

  it('filters arrays by comparisons and existence', () => {
    assert.deepEqual(find('.status.conditions[?(@.type=="Ready")].status'), [['True']]);
    assert.deepEqual(find(".status.conditions[?(@.type!='Ready')].type"), [['Progressing']]);
    assert.deepEqual(find('.spec.items[?(@.size > 1)].name'), [['y', 'z']]);
    assert.deepEqual(find('.spec.items[?(@.size<=2)].name'), [['x', 'y']]);
    assert.deepEqual(find('.spec.items[?(@.name)].size'), [[1, 2, 3]]);
    assert.throws(() => find('.spec.items[?(@.size=="1")]'), {
      message: 'incompatible types for comparison',
    });
    // an int field never equals a float literal in Go's template comparison
    assert.throws(() => find('.spec.items[?(@.size==1.0)]'), {
      message: 'incompatible types for comparison',
    });
    assert.throws(() => find('.spec.items[?(@.missing=="x")]'), {
      message: 'can only compare one element at a time',
    });
    assert.throws(() => find('.spec.items[?(@.size=2)]'), { message: 'unrecognized filter operator =' });
  });

  it('descends recursively', () => {
    assert.deepEqual(find('.spec.items..name'), [['x', 'y', 'z']]);
    assert.deepEqual(find('..type'), [['Progressing', 'Ready']]);
  });

  it('gives one result list per action', () => {
    const path = { path: '', root: parseJSONPathTemplate('{.spec.replicas} and {.metadata.name}') };
    assert.deepEqual(findResults(path, data), [[3], [' and '], ['a']]);
  });
});

describe('Go printing of results', () => {
  it('prints floats as %v', () => {
    assert.equal(goFloatString(0.5), '0.5');
    assert.equal(goFloatString(1234567.5), '1.2345675e+06');
    assert.equal(goFloatString(0.00001), '1e-05');
    assert.equal(goFloatString(123456.5), '123456.5');
  });

  it('prints lists and maps as sorted, HTML-escaped JSON', () => {
    assert.equal(goJSONMarshal({ b: [1, 'x'], a: '<&>' }), '{"a":"\\u003c\\u0026\\u003e","b":[1,"x"]}');
    assert.equal(goPrintValue(['foo']), '["foo"]');
    assert.equal(goPrintValue(42), '42');
    assert.equal(goPrintValue(true), 'true');
    assert.equal(goPrintValue(null), '<no value>');
  });
});
