// Kept objects share one frozen FieldsV1 tree per text: a tree is found by the text the storage
// encoding kept on it, an entry holding another tree of that text is copied to hold the kept one,
// and what another object shares (its managedFields array, its entries) is left as it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, ManagedFieldsEntry } from '../api/meta.js';
import { encodeFieldsV1 } from '../machinery/patch/fieldpath/fields-v1.js';
import { FieldSet } from '../machinery/patch/fieldpath/set.js';
import { FieldsV1Interner } from './fields-v1-interner.js';
import { keptFieldsV1Text, managedFieldsPieces } from './fields-v1-text.js';

const f = (name: string) => ({ kind: 'field', name }) as const;

/** A FieldsV1 tree as the field manager makes them, for the fields named. */
const tree = (...names: string[]): Record<string, unknown> =>
  encodeFieldsV1(FieldSet.of(...names.map((n) => [f('spec'), f(n)])));

const entry = (manager: string, fieldsV1: Record<string, unknown>): ManagedFieldsEntry => ({
  manager,
  operation: 'Update',
  apiVersion: 'v1',
  time: '2026-11-30T10:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1,
});

/** A pod whose entries were written (their FieldsV1 carry their text, as after a write). */
function written(name: string, ...entries: ManagedFieldsEntry[]): KubeObject {
  managedFieldsPieces(entries);
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, managedFields: entries } };
}

const fieldsOf = (obj: KubeObject, i: number): unknown => obj.metadata?.managedFields?.[i]?.fieldsV1;

describe('FieldsV1Interner', () => {
  it('gives objects whose managers own the same fields one frozen tree', () => {
    const interner = new FieldsV1Interner(1 << 20);
    const a = written('a', entry('x', tree('image')), entry('y', tree('replicas', 'paused')));
    const b = written('b', entry('x', tree('image')), entry('y', tree('replicas', 'paused')));
    const aEntries = a.metadata?.managedFields;
    interner.share(a);
    assert.equal(a.metadata?.managedFields, aEntries, 'the first of a text keeps its entries');
    assert.ok(Object.isFrozen(fieldsOf(a, 0)) && Object.isFrozen(fieldsOf(a, 1)));

    const bEntries = b.metadata?.managedFields ?? [];
    const [bFirst, bSecond] = bEntries;
    const bTree = bFirst?.fieldsV1;
    interner.share(b);
    assert.equal(fieldsOf(b, 0), fieldsOf(a, 0));
    assert.equal(fieldsOf(b, 1), fieldsOf(a, 1));
    assert.notEqual(b.metadata?.managedFields, bEntries, 'a new array');
    assert.equal(bEntries[0], bFirst, 'the old array is as it was');
    assert.equal(bEntries[1], bSecond);
    assert.equal(bFirst?.fieldsV1, bTree, 'and so are its entries');
    assert.ok(!Object.isFrozen(bTree), 'the tree given up is not frozen');
    const now = b.metadata?.managedFields ?? [];
    assert.deepEqual(now, bEntries, 'equal entries');
    assert.deepEqual(Object.keys(now[0] as object), Object.keys(bFirst as object), 'members in order');
    assert.equal(keptFieldsV1Text(fieldsOf(b, 0) as object), keptFieldsV1Text(bTree as object));
    assert.equal(interner.size, 2);
  });

  it('leaves trees without their text alone, and objects without managedFields', () => {
    const interner = new FieldsV1Interner(1 << 20);
    const sent = { 'f:spec': { 'f:image': {} } };
    const obj: KubeObject = { kind: 'Pod', metadata: { name: 'p', managedFields: [entry('x', sent)] } };
    const entries = obj.metadata?.managedFields;
    assert.equal(interner.share(obj), obj);
    assert.equal(obj.metadata?.managedFields, entries);
    assert.ok(!Object.isFrozen(sent));
    assert.equal(interner.size, 0);
    for (const bare of [{ kind: 'Pod' }, { kind: 'Pod', metadata: { name: 'p' } }] as KubeObject[])
      assert.deepEqual(interner.share(bare), bare);
  });

  it('keeps texts within its bound, forgetting the least recently found first', () => {
    const one = written('one', entry('x', tree('a')));
    const size = (keptFieldsV1Text(fieldsOf(one, 0) as object) ?? '').length + 64;
    const interner = new FieldsV1Interner(2 * size);
    interner.share(one);
    interner.share(written('two', entry('x', tree('b'))));
    // Found again, `a` is now the most recent: `b` goes when `c` comes.
    const again = written('again', entry('x', tree('a')));
    interner.share(again);
    assert.equal(fieldsOf(again, 0), fieldsOf(one, 0));
    interner.share(written('three', entry('x', tree('c'))));
    assert.deepEqual([interner.size, interner.bytes], [2, 2 * size]);
    const b = written('b again', entry('x', tree('b')));
    const bTree = fieldsOf(b, 0);
    interner.share(b);
    assert.equal(fieldsOf(b, 0), bTree, 'forgotten: kept anew');
    const a = written('a again', entry('x', tree('a')));
    interner.share(a);
    assert.notEqual(fieldsOf(a, 0), fieldsOf(one, 0), 'a went when b came back');

    const tiny = new FieldsV1Interner(size - 1);
    const big = written('big', entry('x', tree('a')));
    tiny.share(big);
    assert.deepEqual([tiny.size, Object.isFrozen(fieldsOf(big, 0))], [0, false], 'over the bound: not kept');
  });
});
