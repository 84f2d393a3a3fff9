import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InvalidFieldError } from '../errors/index.js';
import { FieldError } from './field-error.js';
import { toAggregate } from './error-list.js';
import { newPath } from './field-path.js';

describe('FieldPath', () => {
  const cases: [string, () => { toString(): string }, string][] = [
    ['root', () => newPath('metadata'), 'metadata'],
    ['several names', () => newPath('spec', 'template', 'metadata'), 'spec.template.metadata'],
    ['child', () => newPath('metadata').child('name'), 'metadata.name'],
    [
      'child with more names',
      () => newPath('spec').child('selector', 'matchLabels'),
      'spec.selector.matchLabels',
    ],
    ['key', () => newPath('metadata').child('labels').key('app'), 'metadata.labels[app]'],
    [
      'key with dots and slash',
      () => newPath('metadata', 'annotations').key('example.com/x'),
      'metadata.annotations[example.com/x]',
    ],
    [
      'index then child',
      () => newPath('spec').child('containers').index(0).child('name'),
      'spec.containers[0].name',
    ],
    ['index of root', () => newPath('items').index(2), 'items[2]'],
    ['index of index', () => newPath('a').index(0).index(1), 'a[0][1]'],
    ['root()', () => newPath('a').child('b').index(3).root(), 'a'],
  ];
  for (const [name, make, want] of cases) {
    test(name, () => {
      assert.equal(make().toString(), want);
    });
  }

  test('paths are immutable', () => {
    const spec = newPath('spec');
    spec.child('a');
    spec.index(1);
    assert.equal(spec.toString(), 'spec');
  });
});

describe('FieldError.error()', () => {
  const p = newPath('f');
  const cases: [string, FieldError, string][] = [
    [
      'required with detail',
      FieldError.required(newPath('metadata', 'name'), 'name or generateName is required'),
      'metadata.name: Required value: name or generateName is required',
    ],
    [
      'required without detail',
      FieldError.required(newPath('metadata', 'namespace')),
      'metadata.namespace: Required value',
    ],
    [
      'forbidden',
      FieldError.forbidden(newPath('metadata', 'namespace'), 'not allowed on this type'),
      'metadata.namespace: Forbidden: not allowed on this type',
    ],
    [
      'invalid string quoted as Go %q',
      FieldError.invalid(p, 'a"b\\c\n\t', 'bad'),
      'f: Invalid value: "a\\"b\\\\c\\n\\t": bad',
    ],
    ['invalid without detail', FieldError.invalid(p, 'x'), 'f: Invalid value: "x"'],
    ['invalid empty string', FieldError.invalid(p, '', 'd'), 'f: Invalid value: "": d'],
    [
      'invalid integer',
      FieldError.invalid(newPath('metadata', 'generation'), -1, 'must be greater than or equal to 0'),
      'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
    ],
    ['invalid float', FieldError.invalid(p, 1.5, 'd'), 'f: Invalid value: 1.5: d'],
    [
      'invalid small float in exponent form',
      FieldError.invalid(p, 0.00001, 'd'),
      'f: Invalid value: 1e-05: d',
    ],
    ['invalid huge float', FieldError.invalid(p, 1e21, 'd'), 'f: Invalid value: 1e+21: d'],
    ['invalid boolean', FieldError.invalid(p, true, 'd'), 'f: Invalid value: true: d'],
    ['invalid list as JSON', FieldError.invalid(p, ['a', 'b'], 'd'), 'f: Invalid value: ["a","b"]: d'],
    ['invalid empty list', FieldError.invalid(p, [], 'd'), 'f: Invalid value: []: d'],
    ['invalid null', FieldError.invalid(p, null, 'd'), 'f: Invalid value: null: d'],
    ['invalid undefined', FieldError.invalid(p, undefined, 'd'), 'f: Invalid value: null: d'],
    [
      'invalid object with HTML escaped',
      FieldError.invalid(p, { a: '<b>&' }, 'd'),
      'f: Invalid value: {"a":"\\u003cb\\u003e\\u0026"}: d',
    ],
    ['control and DEL bytes as \\x', FieldError.invalid(p, '\u0001\u007f'), 'f: Invalid value: "\\x01\\x7f"'],
    ['Go short escapes', FieldError.invalid(p, '\u0007\b\f\r\v'), 'f: Invalid value: "\\a\\b\\f\\r\\v"'],
    ['printable unicode kept', FieldError.invalid(p, 'é日本😀'), 'f: Invalid value: "é日本😀"'],
    [
      'non-printable unicode escaped',
      FieldError.invalid(p, '\u00a0\u200b'),
      'f: Invalid value: "\\u00a0\\u200b"',
    ],
    ['nil path', FieldError.invalid(undefined, 'x', 'd'), '<nil>: Invalid value: "x": d'],
    [
      'type invalid',
      FieldError.typeInvalid(p, 'x', 'must be an integer'),
      'f: Invalid value: "x": must be an integer',
    ],
    [
      'duplicate',
      FieldError.duplicate(newPath('spec', 'ports').index(1).child('name'), 'http'),
      'spec.ports[1].name: Duplicate value: "http"',
    ],
    ['not found', FieldError.notFound(p, 'x'), 'f: Not found: "x"'],
    [
      'not supported',
      FieldError.notSupported(newPath('propagationPolicy'), 'X', ['Foreground', 'Background']),
      'propagationPolicy: Unsupported value: "X": supported values: "Foreground", "Background"',
    ],
    ['not supported without list', FieldError.notSupported(p, 'X', []), 'f: Unsupported value: "X"'],
    [
      'too long',
      FieldError.tooLong(newPath('metadata', 'annotations'), 262144),
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ],
    ['too long, one byte', FieldError.tooLong(p, 1), 'f: Too long: may not be more than 1 byte'],
    ['too long, no limit', FieldError.tooLong(p, -1), 'f: Too long: value is too long'],
    ['too many', FieldError.tooMany(p, 5, 3), 'f: Too many: 5: must have at most 3 items'],
    [
      'too many, one item, count omitted',
      FieldError.tooMany(p, -1, 1),
      'f: Too many: must have at most 1 item',
    ],
    ['too many, no limit', FieldError.tooMany(p, 2, -1), 'f: Too many: 2: has too many items'],
    ['internal from Error', FieldError.internal(p, new Error('boom')), 'f: Internal error: boom'],
    ['internal from text', FieldError.internal(p, 'boom'), 'f: Internal error: boom'],
  ];
  for (const [name, err, want] of cases) {
    test(name, () => {
      assert.equal(err.error(), want);
    });
  }

  test('errorBody leaves out the field', () => {
    assert.equal(FieldError.invalid(p, 'x', 'd').errorBody(), 'Invalid value: "x": d');
  });

  test('serves as an InvalidFieldError for the Invalid status', () => {
    const err: InvalidFieldError = FieldError.required(newPath('metadata', 'name'), 'd');
    assert.deepEqual(
      { causeType: err.causeType, field: err.field, body: err.body, text: err.text },
      {
        causeType: 'FieldValueRequired',
        field: 'metadata.name',
        body: 'Required value: d',
        text: 'metadata.name: Required value: d',
      },
    );
  });
});

describe('toAggregate', () => {
  const a = FieldError.required(newPath('metadata', 'name'), 'name or generateName is required');
  const b = FieldError.required(newPath('metadata', 'namespace'));
  const cases: [string, FieldError[], string | undefined][] = [
    ['empty list', [], undefined],
    ['one error stands alone', [a], 'metadata.name: Required value: name or generateName is required'],
    [
      'several in brackets',
      [a, b],
      '[metadata.name: Required value: name or generateName is required, metadata.namespace: Required value]',
    ],
    ['repeats collapse to one', [b, b], 'metadata.namespace: Required value'],
    [
      'repeats dropped in order',
      [b, a, b],
      '[metadata.namespace: Required value, metadata.name: Required value: name or generateName is required]',
    ],
  ];
  for (const [name, list, want] of cases) {
    test(name, () => {
      assert.equal(toAggregate(list)?.error(), want);
    });
  }

  test('keeps the distinct errors', () => {
    assert.equal(toAggregate([a, a, b])?.errors.length, 2);
  });
});
