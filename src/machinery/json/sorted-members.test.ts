import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  apiVersionBeforeKind,
  compareGoKeys,
  inSortedMemberOrder,
  startsWithMembers,
} from './sorted-members.js';

describe('inSortedMemberOrder (Go map[string]interface{} order)', () => {
  const cases: { name: string; input: unknown; want: string }[] = [
    {
      name: 'a custom resource: every level sorted, the top level and metadata included',
      input: {
        kind: 'Widget',
        apiVersion: 'example.com/v1',
        metadata: { name: 'w', namespace: 'd', labels: { z: '1', a: '2' }, uid: 'u' },
        spec: { size: 3, color: 'red', items: [{ b: 1, a: 2 }] },
      },
      want:
        '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"labels":{"a":"2","z":"1"},"name":"w",' +
        '"namespace":"d","uid":"u"},"spec":{"color":"red","items":[{"a":2,"b":1}],"size":3}}',
    },
    { name: 'scalars and arrays of scalars as they are', input: [3, 'b', null], want: '[3,"b",null]' },
    {
      name: 'uppercase before lowercase (byte order)',
      input: { b: 1, B: 2, a: 3 },
      want: '{"B":2,"a":3,"b":1}',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(JSON.stringify(inSortedMemberOrder(c.input)), c.want);
    });
  }

  it('returns an object already in order as it is, and leaves its input untouched', () => {
    const sorted = { a: { b: [{ c: 1, d: 2 }] }, e: 1 };
    assert.equal(inSortedMemberOrder(sorted), sorted);
    const unsorted = { e: 1, a: { d: 2, c: 1 } };
    const copy = structuredClone(unsorted);
    const out = inSortedMemberOrder(unsorted);
    assert.notEqual(out, unsorted);
    assert.deepEqual(unsorted, copy);
    assert.deepEqual(Object.keys(unsorted), ['e', 'a']);
  });

  it('rebuilds only the objects on the way to a member out of order, sharing the others', () => {
    const fine = { x: 1, y: [{ p: 1, q: 2 }] };
    const list = [{ a: 1 }, { c: 1, b: 2 }];
    const input = { a: fine, b: { d: list, e: 'x' }, c: [fine] };
    const out = inSortedMemberOrder(input);
    assert.notEqual(out, input);
    assert.equal(out.a, fine);
    assert.equal(out.c, input.c);
    assert.notEqual(out.b, input.b);
    assert.notEqual(out.b.d, list);
    assert.equal(out.b.d[0], list[0]);
    assert.deepEqual(Object.keys(out.b.d[1] ?? {}), ['b', 'c']);
    assert.deepEqual(Object.keys(out), ['a', 'b', 'c']);
  });

  it('keeps array-index keys first, as every object lists them, and sorts the others', () => {
    const indexFirst = { 10: 'a', 9: 'b', b: 1, a: 2 };
    assert.equal(JSON.stringify(inSortedMemberOrder(indexFirst)), '{"9":"b","10":"a","a":2,"b":1}');
    const inOrder = { 2: 'x', 10: 'y', a: 1, b: 2 };
    assert.equal(inSortedMemberOrder(inOrder), inOrder);
  });

  it('orders keys by UTF-8 bytes as Go does, not by UTF-16 code units', () => {
    assert.ok(compareGoKeys('\u{1F600}', '\uFF01') > 0);
    assert.ok(compareGoKeys('a', 'ab') < 0);
    assert.ok(compareGoKeys('\uFF01', '\u{1F600}') < 0);
  });
});

describe('startsWithMembers', () => {
  it('tells an object written as a map (apiVersion, kind) from one written from a struct (kind first)', () => {
    assert.equal(
      startsWithMembers({ apiVersion: 'v1', kind: 'X', metadata: {} }, 'apiVersion', 'kind'),
      true,
    );
    assert.equal(startsWithMembers({ kind: 'X', apiVersion: 'v1' }, 'apiVersion', 'kind'), false);
    assert.equal(startsWithMembers({ apiVersion: 'v1', metadata: {} }, 'apiVersion', 'kind'), false);
    assert.equal(startsWithMembers({ apiVersion: 'v1' }, 'apiVersion', 'kind'), false);
    assert.equal(startsWithMembers({}, 'apiVersion', 'kind'), false);
    assert.equal(startsWithMembers({ apiVersion: 'v1', items: [], kind: 'L' }, 'apiVersion', 'items'), true);
  });
});

describe('apiVersionBeforeKind (an object written as a Go map)', () => {
  const cases: [string, string, boolean][] = [
    ['a map', '{"apiVersion":"v1","kind":"X","metadata":{}}', true],
    [
      'a map with members sorting before apiVersion',
      '{"7":1,"Zeta":2,"apiVersion":"v1","b":1,"kind":"X"}',
      true,
    ],
    ['a struct', '{"kind":"X","apiVersion":"v1","metadata":{}}', false],
    ['a struct without apiVersion', '{"kind":"X","metadata":{}}', false],
    ['no kind', '{"apiVersion":"v1","metadata":{}}', false],
    ['nothing', '{}', false],
  ];
  for (const [name, text, want] of cases) {
    it(name, () => {
      assert.equal(apiVersionBeforeKind(JSON.parse(text) as object), want);
    });
  }
});
