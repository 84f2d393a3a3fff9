import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONObject } from '../json.js';
import { podResolver, podSchema } from '../testing/pod-schema.js';
import { strategicMergePatch, StrategicMergeError } from './strategic-merge-patch.js';

const schema = { resolver: podResolver, root: podSchema };
const smp = (original: JSONObject, patch: JSONObject): JSONObject =>
  strategicMergePatch(original, patch, schema);

interface Case {
  readonly name: string;
  readonly original: JSONObject;
  readonly patch: JSONObject;
  readonly want: JSONObject;
}

const c = (...containers: JSONObject[]): JSONObject => ({ spec: { containers } });

const cases: Case[] = [
  {
    name: 'scalar replaced, map merged',
    original: { metadata: { labels: { a: '1', b: '2' } } },
    patch: { metadata: { labels: { b: '3', c: '4' } } },
    want: { metadata: { labels: { a: '1', b: '3', c: '4' } } },
  },
  {
    name: 'null deletes a key',
    original: { metadata: { labels: { a: '1', b: '2' } } },
    patch: { metadata: { labels: { a: null } } },
    want: { metadata: { labels: { b: '2' } } },
  },
  {
    name: 'null for a missing key is dropped',
    original: {},
    patch: { metadata: { labels: { a: null, b: '1' } } },
    want: { metadata: { labels: { b: '1' } } },
  },
  {
    name: 'list of maps merged by key',
    original: c({ name: 'a', image: 'x' }, { name: 'b', image: 'y' }),
    patch: c({ name: 'b', image: 'z' }),
    want: c({ name: 'a', image: 'x' }, { name: 'b', image: 'z' }),
  },
  {
    // mergeSortedSlice puts patch items the live list lacks before server-only ones.
    name: 'new item goes first without $setElementOrder',
    original: c({ name: 'a', image: 'x' }),
    patch: c({ name: 'b', image: 'y' }),
    want: c({ name: 'b', image: 'y' }, { name: 'a', image: 'x' }),
  },
  {
    name: 'nested list merge (ports by containerPort, env by name)',
    original: c({ name: 'a', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }] }),
    patch: c({ name: 'a', ports: [{ containerPort: 443 }], env: [{ name: 'A', value: '2' }] }),
    want: c({
      name: 'a',
      ports: [{ containerPort: 443 }, { containerPort: 80 }],
      env: [{ name: 'A', value: '2' }],
    }),
  },
  {
    name: '$patch: delete removes an item',
    original: c({ name: 'a' }, { name: 'b' }),
    patch: c({ name: 'a', $patch: 'delete' }),
    want: c({ name: 'b' }),
  },
  {
    name: '$patch: replace in a list',
    original: c({ name: 'a' }, { name: 'b' }),
    patch: c({ name: 'c' }, { $patch: 'replace' }),
    want: c({ name: 'c' }),
  },
  {
    name: '$patch: replace on a map',
    original: { metadata: { labels: { a: '1' } } },
    patch: { metadata: { labels: { b: '2', $patch: 'replace' } } },
    want: { metadata: { labels: { b: '2' } } },
  },
  {
    name: '$patch: delete on a map',
    original: { metadata: { labels: { a: '1' }, name: 'n' } },
    patch: { metadata: { labels: { $patch: 'delete' } } },
    want: { metadata: { labels: {}, name: 'n' } },
  },
  {
    name: 'primitive merge list: union, patch order',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { finalizers: ['c', 'a'] } },
    want: { metadata: { finalizers: ['c', 'a', 'b'] } },
  },
  {
    name: '$deleteFromPrimitiveList',
    original: { metadata: { finalizers: ['a', 'b', 'c'] } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
    want: { metadata: { finalizers: ['a', 'c'] } },
  },
  {
    name: 'non-merging list replaced',
    original: c({ name: 'a', args: ['1', '2'] }),
    patch: c({ name: 'a', args: ['3'] }),
    want: c({ name: 'a', args: ['3'] }),
  },
  {
    name: '$setElementOrder reorders',
    original: c({ name: 'a' }, { name: 'b' }, { name: 'c' }),
    patch: {
      spec: {
        '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }, { name: 'b' }],
        containers: [{ name: 'a', image: 'i' }],
      },
    },
    want: c({ name: 'c' }, { name: 'a', image: 'i' }, { name: 'b' }),
  },
  {
    name: '$setElementOrder on a primitive list',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { '$setElementOrder/finalizers': ['b', 'c', 'a'], finalizers: ['c'] } },
    want: { metadata: { finalizers: ['b', 'c', 'a'] } },
  },
  {
    name: '$retainKeys clears other keys',
    original: { spec: { volumes: [{ name: 'v', emptyDir: { medium: 'Memory' } }] } },
    patch: {
      spec: { volumes: [{ name: 'v', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/x' } }] },
    },
    want: { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' } }] } },
  },
  {
    name: 'directives removed from values new to the object',
    original: {},
    patch: { spec: { containers: [{ name: 'a' }, { name: 'b', $patch: 'delete' }] } },
    want: { spec: { containers: [{ name: 'a' }] } },
  },
  {
    name: 'server-only items keep their place',
    original: c({ name: 'a' }, { name: 'b' }, { name: 'c' }),
    patch: c({ name: 'c', image: 'x' }, { name: 'd' }),
    want: c({ name: 'a' }, { name: 'b' }, { name: 'c', image: 'x' }, { name: 'd' }),
  },
];

describe('strategicMergePatch', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      assert.deepEqual(smp(tc.original, tc.patch), tc.want);
    });
  }

  it('does not change its inputs', () => {
    const original = c({ name: 'a' });
    const patch = c({ name: 'a', image: 'x' });
    smp(original, patch);
    assert.deepEqual(original, c({ name: 'a' }));
  });

  const failures: { name: string; original: JSONObject; patch: JSONObject; message: string; kind: string }[] =
    [
      {
        name: 'missing merge key',
        original: c({ name: 'a' }),
        patch: c({ image: 'x' }),
        message: 'map: map[image:x] does not contain declared merge key: name',
        kind: 'internal',
      },
      {
        name: 'unknown $patch',
        original: { metadata: {} },
        patch: { metadata: { $patch: 'bogus' } },
        message: 'unknown patch type: bogus in map: map[$patch:bogus]',
        kind: 'internal',
      },
      {
        name: 'bad retainKeys',
        original: { spec: {} },
        patch: { spec: { $retainKeys: 'x' } },
        message: 'invalid patch format of retainKeys',
        kind: 'badRequest',
      },
      {
        name: 'patch field outside retainKeys',
        original: { spec: {} },
        patch: { spec: { $retainKeys: ['a'], b: '1' } },
        message: 'invalid patch format of retainKeys',
        kind: 'badRequest',
      },
      {
        name: 'list of lists',
        original: { spec: { extra: {} }, metadata: { finalizers: [['a']] } },
        patch: { metadata: { finalizers: [['b']] } },
        message: 'lists of lists are not supported',
        kind: 'unprocessable',
      },
      {
        name: 'setElementOrder mismatch',
        original: c({ name: 'a' }),
        patch: { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'b' }] } },
        message:
          "The order in patch list:\n[map[name:b]]\n doesn't match $setElementOrder list:\n[map[name:a]]\n",
        kind: 'internal',
      },
    ];
  for (const f of failures) {
    it(`fails: ${f.name}`, () => {
      assert.throws(
        () => smp(f.original, f.patch),
        (err: unknown) =>
          err instanceof StrategicMergeError && err.message === f.message && err.kind === f.kind,
      );
    });
  }
});
