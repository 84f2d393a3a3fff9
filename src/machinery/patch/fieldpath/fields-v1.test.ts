import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeFieldsV1,
  encodeFieldsV1,
  fieldSetOfEncoded,
  isKnownCanonicalFieldsV1,
  trustDecodedFieldsV1,
} from './fields-v1.js';
import { keyElement, pathString, type Path } from './path-element.js';
import { FieldSet } from './set.js';

const f = (name: string) => ({ kind: 'field', name }) as const;

describe('FieldsV1', () => {
  const encoded = {
    'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
    'f:spec': {
      'f:containers': {
        'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} },
      },
      'f:finalizers': { 'v:"x"': {} },
      'f:list': { 'i:0': {} },
    },
  };

  it('round-trips, `.` first and elements in kube order', () => {
    const set = decodeFieldsV1(encoded);
    assert.equal(JSON.stringify(encodeFieldsV1(set)), JSON.stringify(encoded));
  });

  it('iterates members before children for conflict messages', () => {
    const set = decodeFieldsV1(encoded);
    assert.deepEqual(set.paths().map(pathString), [
      '.metadata.labels',
      '.metadata.labels.app',
      '.spec.containers[name="a"]',
      '.spec.containers[name="a"].image',
      '.spec.containers[name="a"].name',
      '.spec.finalizers[="x"]',
      '.spec.list[0]',
    ]);
  });

  it('sorts keys by name and renders multi-key paths as kube does', () => {
    const pe = keyElement([
      { name: 'protocol', value: 'TCP' },
      { name: 'containerPort', value: 80 },
    ]);
    assert.equal(pathString([f('ports'), pe]), '.ports[containerPort=80,protocol="TCP"]');
    assert.deepEqual(encodeFieldsV1(FieldSet.of([f('ports'), pe])), {
      'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': {} },
    });
  });

  it('keeps a list-map key field named __proto__ or constructor (kube: a JSON object key like any other)', () => {
    const pe = keyElement([
      { name: '__proto__', value: 'x' },
      { name: 'constructor', value: 1 },
    ]);
    assert.equal(pathString([f('ports'), pe]), '.ports[__proto__="x",constructor=1]');
    assert.deepEqual(encodeFieldsV1(FieldSet.of([f('ports'), pe])), {
      'f:ports': { 'k:{"__proto__":"x","constructor":1}': {} },
    });
    // Read back from a key not written as encoding writes it, so encoding writes the key anew.
    const decoded = decodeFieldsV1({ 'f:ports': { 'k:{"constructor":1, "__proto__":"x"}': {} } });
    assert.deepEqual(encodeFieldsV1(decoded), { 'f:ports': { 'k:{"__proto__":"x","constructor":1}': {} } });
  });

  it('refuses malformed keys', () => {
    assert.throws(() => decodeFieldsV1({ 'x:y': {} }));
    assert.throws(() => decodeFieldsV1({ 'k:notjson': {} }));
  });
});

describe('FieldSet', () => {
  const p = (...names: string[]): Path => names.map(f);
  it('union, intersection, difference and recursive difference', () => {
    const a = FieldSet.of(p('a', 'b'), p('a', 'c'), p('d'));
    const b = FieldSet.of(p('a', 'c'), p('e'));
    assert.deepEqual(a.union(b).paths().map(pathString), ['.d', '.e', '.a.b', '.a.c']);
    assert.deepEqual(a.intersection(b).paths().map(pathString), ['.a.c']);
    assert.deepEqual(a.difference(b).paths().map(pathString), ['.d', '.a.b']);
    assert.deepEqual(
      a
        .recursiveDifference(FieldSet.of(p('a')))
        .paths()
        .map(pathString),
      ['.d'],
    );
    assert.ok(new FieldSet().empty());
  });
});

describe('decodeFieldsV1 reads lazily and gives canonical objects back', () => {
  const canonical = {
    'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } },
    'f:spec': {
      '.': {},
      'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:name': {} } },
      'f:set': { 'v:1': {}, 'v:"a"': {} },
    },
  };

  it('encodes an untouched decoded set as the very object it came from', () => {
    assert.equal(encodeFieldsV1(decodeFieldsV1(canonical)), canonical);
  });

  it('reuses the untouched subtrees of a changed set', () => {
    const set = decodeFieldsV1(canonical).union(FieldSet.of([f('metadata'), f('labels'), f('b')]));
    const out = encodeFieldsV1(set);
    assert.deepEqual(out, {
      'f:metadata': { 'f:labels': { '.': {}, 'f:a': {}, 'f:b': {} } },
      'f:spec': canonical['f:spec'],
    });
    assert.equal(out['f:spec'], canonical['f:spec']);
  });

  for (const [label, input, expected] of [
    ['keys out of order', { 'f:b': {}, 'f:a': {} }, { 'f:a': {}, 'f:b': {} }],
    ['a key element spelled with spaces', { 'k:{"name": "x"}': {} }, { 'k:{"name":"x"}': {} }],
    ['a key element with its fields unsorted', { 'k:{"b":1,"a":2}': {} }, { 'k:{"a":2,"b":1}': {} }],
    ['`.` alone', { 'f:a': { '.': {} } }, { 'f:a': {} }],
    ['`.` last', { 'f:a': { 'f:b': {}, '.': {} } }, { 'f:a': { '.': {}, 'f:b': {} } }],
    [
      '`.` holding something',
      { 'f:a': { '.': { 'f:x': {} }, 'f:b': {} } },
      { 'f:a': { '.': {}, 'f:b': {} } },
    ],
    ['`.` at the top', { '.': {}, 'f:a': {} }, { 'f:a': {} }],
    ['a value before a key', { 'v:"x"': {}, 'k:{"a":1}': {} }, { 'k:{"a":1}': {}, 'v:"x"': {} }],
    ['values out of JSON order', { 'v:"a"': {}, 'v:1': {} }, { 'v:1': {}, 'v:"a"': {} }],
    ['an index with a leading zero', { 'i:01': {} }, { 'i:1': {} }],
    [
      'two spellings of one element',
      { 'k:{"a":1,"b":2}': { 'f:x': {} }, 'k:{"b":2,"a":1}': { '.': {}, 'f:y': {} } },
      { 'k:{"a":1,"b":2}': { '.': {}, 'f:x': {}, 'f:y': {} } },
    ],
  ] as const) {
    it(`writes ${label} as encoding does`, () => {
      const out = encodeFieldsV1(decodeFieldsV1(structuredClone(input)));
      assert.equal(JSON.stringify(out), JSON.stringify(expected));
    });
  }

  it('still refuses a malformed key anywhere at decode time, and ignores what `.` holds', () => {
    assert.throws(() => decodeFieldsV1({ 'f:a': { 'f:b': { 'x:c': {} } } }), /unknown path element type/);
    assert.throws(() => decodeFieldsV1({ 'f:a': { 'f:b': 1 } }), /expected an object for "f:b"/);
    assert.doesNotThrow(() => decodeFieldsV1({ 'f:a': { '.': { 'x:c': 1 }, 'f:b': {} } }));
  });
});

describe('FieldsV1 objects known to be canonical', () => {
  it('are what encoding builds, what addedFieldsV1 hands over, and what decoding finds canonical', () => {
    assert.equal(isKnownCanonicalFieldsV1(encodeFieldsV1(FieldSet.of([f('a')]))), true);
    const added = { 'f:a': {} };
    fieldSetOfEncoded(added);
    assert.equal(isKnownCanonicalFieldsV1(added), true);
    const canonical = { 'f:a': {}, 'f:b': {} };
    assert.equal(isKnownCanonicalFieldsV1(canonical), false);
    decodeFieldsV1(canonical);
    assert.equal(isKnownCanonicalFieldsV1(canonical), true);
    const unordered = { 'f:b': {}, 'f:a': {} };
    decodeFieldsV1(unordered);
    assert.equal(isKnownCanonicalFieldsV1(unordered), false);
    assert.equal(isKnownCanonicalFieldsV1(null), false);
    assert.equal(isKnownCanonicalFieldsV1([]), false);
  });

  it('decode without the check: one the storage codec vouched for is not walked again', () => {
    // A malformed object shows the check is skipped; the codec marks only what this process wrote.
    const vouched = { 'f:a': { 'x:b': {} } };
    assert.throws(() => decodeFieldsV1(structuredClone(vouched)), /unknown path element type/);
    trustDecodedFieldsV1(vouched);
    assert.equal(isKnownCanonicalFieldsV1(vouched), true);
    assert.equal(encodeFieldsV1(decodeFieldsV1(vouched)), vouched);
  });
});
