import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeFieldsV1, encodeFieldsV1 } from './fields-v1.js';
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
