import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeFieldsV1, encodeFieldsV1 } from './fields-v1.js';
import { keyElement, pathString, type Path, type PathElement } from './path-element.js';
import { FieldSet } from './set.js';

const f = (name: string): PathElement => ({ kind: 'field', name });
const p = (...names: string[]): Path => names.map(f);
const strings = (s: FieldSet): string[] => s.paths().map(pathString);

describe('FieldSet', () => {
  it('orders each level by element whatever the insertion order', () => {
    const s = FieldSet.of(
      [f('list'), { kind: 'index', index: 1 }],
      [f('list'), { kind: 'value', value: 'x' }],
      [f('list'), keyElement([{ name: 'name', value: 'b' }])],
      [f('list'), keyElement([{ name: 'name', value: 'a' }]), f('x')],
      [f('list'), f('z')],
    );
    assert.deepEqual(strings(s), [
      '.list.z',
      '.list[name="b"]',
      '.list[="x"]',
      '.list[1]',
      '.list[name="a"].x',
    ]);
    assert.deepEqual(
      s.children().map((c) => pathString([c.pe])),
      ['.list'],
    );
  });

  it('a member that also has children is listed in both', () => {
    const s = FieldSet.of(p('a'), p('a', 'b'));
    assert.deepEqual(s.members(), [f('a')]);
    assert.deepEqual(strings(s.withPrefix(f('a'))), ['.b']);
    assert.ok(s.has(p('a')) && s.has(p('a', 'b')) && !s.has(p('b')) && !s.has([]));
    assert.deepEqual(encodeFieldsV1(s), { 'f:a': { '.': {}, 'f:b': {} } });
  });

  it('operations with nothing in common return the set itself', () => {
    const a = FieldSet.of(p('a', 'b'), p('c'));
    assert.equal(a.difference(FieldSet.of(p('x', 'y'))), a);
    assert.equal(a.recursiveDifference(new FieldSet()), a);
    assert.equal(a.union(new FieldSet()), a);
    assert.ok(a.difference(a).empty());
    assert.ok(a.intersection(FieldSet.of(p('x'))).empty());
  });

  it('never keeps an emptied child', () => {
    const a = FieldSet.of(p('a', 'b'), p('c'));
    const left = a.difference(FieldSet.of(p('a', 'b')));
    assert.deepEqual(strings(left), ['.c']);
    assert.deepEqual(left.children(), []);
    assert.ok(left.equals(FieldSet.of(p('c'))));
    assert.ok(a.intersection(FieldSet.of(p('a', 'x'), p('c'))).equals(FieldSet.of(p('c'))));
  });

  it('inserting into a result leaves the sets it shares subtrees with alone', () => {
    const a = FieldSet.of(p('a', 'b'));
    const b = FieldSet.of(p('c', 'd'));
    const u = a.union(b);
    u.insert(p('a', 'x'));
    u.insert(p('c', 'y', 'z'));
    u.insertChild(f('c'), FieldSet.of(p('w')));
    assert.deepEqual(strings(u), ['.a.b', '.a.x', '.c.d', '.c.w', '.c.y.z']);
    assert.deepEqual(strings(a), ['.a.b']);
    assert.deepEqual(strings(b), ['.c.d']);
  });

  it('isSubsetOf agrees with an empty difference, on built sets and on sets read from FieldsV1', () => {
    const element = fc.constantFrom<PathElement>(
      { kind: 'field', name: 'a' },
      { kind: 'field', name: 'b' },
      keyElement([{ name: 'name', value: 'x' }]),
      keyElement([{ name: 'name', value: 'y' }]),
      { kind: 'index', index: 0 },
    );
    const paths = fc.array(fc.array(element, { minLength: 1, maxLength: 3 }), { maxLength: 6 });
    fc.assert(
      fc.property(paths, paths, (p, q) => {
        const a = FieldSet.of(...p);
        const b = FieldSet.of(...q);
        const expected = a.difference(b).empty();
        assert.equal(a.isSubsetOf(b), expected);
        assert.equal(decodeFieldsV1(encodeFieldsV1(a)).isSubsetOf(b), expected);
        assert.equal(
          decodeFieldsV1(encodeFieldsV1(a)).isSubsetOf(decodeFieldsV1(encodeFieldsV1(b))),
          expected,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('isSubsetOf reads a FieldsV1 source as decoding does: `.` as membership, two spellings of a key alike', () => {
    const source = decodeFieldsV1({
      'f:spec': { '.': {}, 'k:{"b":2,"a":1}': { 'f:x': {} }, 'k:{"a":1,"b":2}': { 'f:y': {} } },
    });
    const key = keyElement([
      { name: 'a', value: 1 },
      { name: 'b', value: 2 },
    ]);
    const spec = { kind: 'field', name: 'spec' } as const;
    const all = FieldSet.of(
      [spec],
      [spec, key, { kind: 'field', name: 'x' }],
      [spec, key, { kind: 'field', name: 'y' }],
    );
    assert.equal(source.isSubsetOf(all), true);
    assert.equal(
      source.isSubsetOf(
        FieldSet.of([spec, key, { kind: 'field', name: 'x' }], [spec, key, { kind: 'field', name: 'y' }]),
      ),
      false,
    );
    assert.equal(source.isSubsetOf(FieldSet.of([spec], [spec, key, { kind: 'field', name: 'x' }])), false);
  });

  it('equals agrees with two empty differences, on built sets, sets read from FieldsV1 and sets sharing their levels', () => {
    const element = fc.constantFrom<PathElement>(
      { kind: 'field', name: 'a' },
      { kind: 'field', name: 'b' },
      keyElement([{ name: 'name', value: 'x' }]),
      { kind: 'index', index: 0 },
    );
    const paths = fc.array(fc.array(element, { minLength: 1, maxLength: 3 }), { maxLength: 5 });
    const read = (s: FieldSet): FieldSet => decodeFieldsV1(encodeFieldsV1(s));
    // The second set is the first with some paths dropped and some prefixes of its paths added:
    // sets that differ only in a member here or there, which random pairs rarely are.
    const near = paths.chain((p) =>
      fc.record({
        p: fc.constant(p),
        drop: fc.array(fc.nat({ max: Math.max(0, p.length - 1) }), { maxLength: 2 }),
        add: fc.array(fc.nat(), { maxLength: 2 }),
      }),
    );
    fc.assert(
      fc.property(near, ({ p, drop, add }) => {
        const prefixes = p.flatMap((path) => path.slice(1).map((_, i) => path.slice(0, i + 1)));
        const q = p.filter((_, i) => !drop.includes(i));
        if (prefixes.length > 0) for (const n of add) q.push(prefixes[n % prefixes.length] as PathElement[]);
        const a = FieldSet.of(...p);
        const b = FieldSet.of(...q);
        // Each pair is made afresh: the oracle (difference) reads every level of what it is given.
        const pairs: (() => readonly [FieldSet, FieldSet])[] = [
          () => [a, b],
          () => [read(a), b],
          () => [a, read(b)],
          () => [read(a), read(b)],
          // A union borrows the unread levels of a set read from FieldsV1.
          () => {
            const rb = read(b);
            return [read(a).union(rb), rb];
          },
        ];
        for (const pair of pairs) {
          const [x, y] = pair();
          const got = [x.equals(y), y.equals(x)];
          const [u, v] = pair();
          const want = u.difference(v).empty() && v.difference(u).empty();
          assert.deepEqual(got, [want, want]);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('equals compares members and children at every level', () => {
    assert.ok(FieldSet.of(p('a', 'b'), p('a')).equals(FieldSet.of(p('a'), p('a', 'b'))));
    assert.ok(!FieldSet.of(p('a', 'b')).equals(FieldSet.of(p('a', 'b'), p('a'))));
    assert.ok(!FieldSet.of(p('a', 'b')).equals(FieldSet.of(p('a', 'c'))));
    assert.ok(new FieldSet().equals(new FieldSet()));
  });
});
