import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../api/meta.js';
import { goJSONText } from '../machinery/json/go-json-text.js';
import { encodeFieldsV1, isKnownCanonicalFieldsV1 } from '../machinery/patch/fieldpath/fields-v1.js';
import { FieldSet } from '../machinery/patch/fieldpath/set.js';
import { podArbitrary } from '../machinery/patch/testing/pod-arbitrary.js';
import { builtinScheme } from '../api/builtin-scheme.js';
import { builtinJSONCodec, jsonCodec } from './codec.js';
import {
  encodeRecordingManagedFields,
  managedFieldsSpanOf,
  type LiveEncoding,
} from './managed-fields-span.js';
import { servedOfWrite } from './served-json.js';

const entries = [
  {
    manager: 'kubectl',
    operation: 'Update' as const,
    apiVersion: 'v1',
    time: '2026-11-29T10:00:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a<b': {} } }, 'f:spec': { 'k:{"name":"c"}': {} } },
  },
];

const objects: Record<string, KubeObject> = {
  // Go's order: managedFields last in metadata, resourceVersion spliced in before them.
  'a built-in object': {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: 'p', namespace: 'n', uid: 'u', labels: { 'a<b': 'x' }, managedFields: entries },
    spec: { containers: [{ name: 'c' }] },
  },
  'non-ASCII text before and in them': {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      name: 'é',
      annotations: { note: '日本語 \u2028' },
      managedFields: entries.map((e) => ({ ...e, manager: 'ü' })),
    },
    data: { k: 'ß' },
  },
  // A custom resource's sorted keys: managedFields before name, resourceVersion spliced in after them.
  'a custom resource': {
    apiVersion: 'example.com/v1',
    data: { nested: { metadata: { managedFields: [] } } },
    kind: 'Widget',
    metadata: { creationTimestamp: '2026-11-29T10:00:00Z', managedFields: entries, name: 'w', uid: 'u' },
  },
  'members after metadata with HTML characters, and one undefined': {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: 'p', managedFields: entries },
    spec: { containers: [{ name: 'c', args: ['<&>', '\u2028'] }] },
    extra: undefined,
    status: { message: 'a & b' },
  },
  // Where an object with an index key sits decides its order: the members are written as one text.
  'an array-index key after metadata': {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: 'c', managedFields: entries },
    data: { '10': 'a', '9': 'b' },
  },
};

/** The members after metadata that `members` marks out in `json`, as parsed one-member objects. */
function membersAt(json: Buffer, members: readonly number[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i + 1 < members.length; i++) {
    const text = json.toString('utf8', members[i], members[i + 1]);
    assert.equal(text[0], ',');
    out.push(JSON.parse(`{${text.slice(1)}}`));
  }
  assert.equal(json.toString('utf8', members[members.length - 1]), '}');
  return out;
}

/** What membersAt should find: each member after metadata that JSON keeps. */
function membersAfterMetadata(obj: KubeObject): unknown[] {
  const keys = Object.keys(obj);
  return keys
    .slice(keys.indexOf('metadata') + 1)
    .filter((k) => obj[k] !== undefined)
    .map((k) => ({ [k]: obj[k] }));
}

describe('managedFields spans', () => {
  for (const [name, obj] of Object.entries(objects)) {
    it(`records where the encoder put them in ${name}, and where serving moved them`, () => {
      const data = encodeRecordingManagedFields(obj);
      assert.equal(data.toString('utf8'), goJSONText(obj));
      const span = managedFieldsSpanOf(data);
      assert.ok(span !== undefined);
      assert.equal(span.rv, 0);
      const text = goJSONText(obj.metadata?.managedFields);
      assert.equal(data.subarray(span.start, span.end).toString('utf8'), text);

      const served = servedOfWrite({}, data, 42);
      assert.ok(served !== null);
      const servedSpan = managedFieldsSpanOf(served.json);
      assert.ok(servedSpan !== undefined);
      assert.equal(servedSpan.rv, 42);
      assert.equal(served.json.subarray(servedSpan.start, servedSpan.end).toString('utf8'), text);
      assert.match(served.json.toString('utf8'), /"resourceVersion":"42"/);

      const index = name === 'an array-index key after metadata';
      assert.equal(span.members === undefined, index);
      if (span.members === undefined || servedSpan.members === undefined) return;
      assert.deepEqual(membersAt(data, span.members), membersAfterMetadata(obj));
      assert.deepEqual(membersAt(served.json, servedSpan.members), membersAfterMetadata(obj));
    });
  }

  it('records nothing for an object without them, nor for bytes copied from recorded ones', () => {
    const bare = encodeRecordingManagedFields({ kind: 'Pod', metadata: { name: 'p', managedFields: [] } });
    assert.equal(managedFieldsSpanOf(bare), undefined);
    const recorded = encodeRecordingManagedFields(objects['a built-in object'] as KubeObject);
    assert.ok(managedFieldsSpanOf(recorded) !== undefined);
    assert.equal(managedFieldsSpanOf(Buffer.from(recorded)), undefined);
  });
});

describe('members copied from the live JSON', () => {
  for (const [name, obj] of Object.entries(objects)) {
    it(`writes ${name} as goJSONText does, the members it shares with the live object copied`, () => {
      const served = servedOfWrite({}, encodeRecordingManagedFields(obj), 42);
      assert.ok(served !== null);
      const live = { object: obj, json: served.json };
      const meta = { ...obj.metadata, labels: { changed: 'yes' } };
      const { spec: _s, ...withoutSpec } = obj;
      for (const next of [
        { ...obj, metadata: meta },
        { ...obj, metadata: meta, spec: { replaced: true } },
        { ...withoutSpec, metadata: meta },
      ] as KubeObject[]) {
        const data = encodeRecordingManagedFields(next, undefined, live);
        assert.equal(data.toString('utf8'), goJSONText(next));
        const span = managedFieldsSpanOf(data);
        if (span?.members !== undefined)
          assert.deepEqual(membersAt(data, span.members), membersAfterMetadata(next));
      }
    });
  }

  it('copies the bytes, not the text of the object as it is now', () => {
    const obj = objects['members after metadata with HTML characters, and one undefined'] as KubeObject;
    const spec = { containers: [{ name: 'c' }] };
    const written = { ...obj, spec };
    const served = servedOfWrite({}, encodeRecordingManagedFields(written), 42);
    assert.ok(served !== null);
    // Against the contract (an encoded object is not changed in place), to see where the bytes come from.
    spec.containers.push({ name: 'd' });
    const data = encodeRecordingManagedFields(written, undefined, { object: written, json: served.json });
    assert.match(data.toString('utf8'), /"spec":\{"containers":\[\{"name":"c"\}\]\}/);
    const fresh = encodeRecordingManagedFields(written);
    assert.match(fresh.toString('utf8'), /\{"name":"d"\}/);
  });

  const codec = builtinJSONCodec(builtinScheme());

  /**
   * A generated pod written, and the object an update of it replaces: the one the write kept, or
   * the cache's decode of its JSON.
   */
  function written(generated: Record<string, unknown>, fromCache: boolean): LiveEncoding {
    const pod = {
      kind: 'Pod',
      apiVersion: 'v1',
      ...generated,
      metadata: { ...(generated['metadata'] as object), managedFields: entries },
      status: { phase: 'Pending' },
    } as KubeObject;
    const ordered = codec.inOrder(pod);
    const served = servedOfWrite({}, codec.encodeInOrder(ordered), 42);
    assert.ok(served !== null);
    return { object: fromCache ? codec.decode(served.json) : codec.decoded(ordered), json: served.json };
  }

  it('writes what the codec writes without them, for the objects a write replaces', () => {
    fc.assert(
      fc.property(podArbitrary, fc.boolean(), (generated, fromCache) => {
        const { object: old, json } = written(generated, fromCache);
        const next = codec.inOrder({ ...old, metadata: { ...old.metadata, labels: { l: '1' } } });
        const copied = codec.encodeInOrder(next, { object: old, json });
        assert.equal(copied.toString('utf8'), codec.encodeInOrder(next).toString('utf8'));
      }),
      { numRuns: 200 },
    );
  });

  it('leaves the members shared with the live object as they are, and writes the same bytes', () => {
    // A status whose text has an array-index key: the encoder writes the whole object then.
    const indexed = {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'a',
          ready: true,
          restartCount: 0,
          image: 'i',
          imageID: '',
          allocatedResources: { '1': '2' },
        },
      ],
    };
    fc.assert(
      fc.property(podArbitrary, fc.boolean(), fc.boolean(), (generated, fromCache, index) => {
        const live = written(generated, fromCache);
        const old = live.object;
        const next = {
          ...old,
          metadata: { ...old.metadata, labels: { l: '1' } },
          ...(index ? { status: indexed } : {}),
        } as KubeObject;
        const kept = codec.inOrder(next, live);
        assert.equal(kept['spec'], old['spec']);
        const full = codec.inOrder(next);
        assert.equal(
          codec.encodeInOrder(kept, live).toString('utf8'),
          codec.encodeInOrder(full).toString('utf8'),
        );
        const decoded = codec.decoded(kept, live);
        assert.deepEqual(decoded, codec.decoded(full));
        assert.equal(decoded['spec'], old['spec']);
        // Without managedFields the object is written whole: nothing is left out of order.
        const bare = { ...next, metadata: { ...next.metadata, managedFields: [] } } as KubeObject;
        assert.deepEqual(codec.inOrder(bare, live), codec.inOrder(bare));
      }),
      { numRuns: 200 },
    );
  });

  it('puts a kept member in order where the whole object is written, or has no managedFields', () => {
    const written = {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'd', namespace: 'n', managedFields: entries },
      spec: {
        selector: { matchLabels: { app: 'a' } },
        template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    } as KubeObject;
    const served = servedOfWrite({}, codec.encodeInOrder(codec.inOrder(written)), 42);
    assert.ok(served !== null);
    const old = codec.decode(served.json);
    const spec = old['spec'] as { template: { metadata: object } };
    // Decoding drops the template's null creationTimestamp, which putting the spec in order adds.
    assert.equal(Object.hasOwn(spec.template.metadata, 'creationTimestamp'), false);
    const live = { object: old, json: served.json };
    const relabeled = { ...old, metadata: { ...old.metadata, labels: { l: '1' } } } as KubeObject;
    // A status whose text has an array-index key: the encoder writes the whole object.
    for (const next of [relabeled, { ...relabeled, status: { replicas: 1, '9': 'x' } } as KubeObject]) {
      const kept = codec.inOrder(next, live);
      assert.equal(kept['spec'], spec);
      const text = codec.encodeInOrder(kept, live).toString('utf8');
      assert.equal(text, codec.encode(next).toString('utf8'));
      assert.match(text, /"template":\{"metadata":\{"creationTimestamp":null,/);
    }
    const bare = { ...relabeled, metadata: { ...relabeled.metadata, managedFields: [] } } as KubeObject;
    assert.notEqual(codec.inOrder(bare, live)['spec'], spec);
    assert.match(codec.encode(bare).toString('utf8'), /"creationTimestamp":null/);
  });

  it('copies nothing from bytes whose members were not recorded', () => {
    const obj = objects['a built-in object'] as KubeObject;
    const next = { ...obj, metadata: { ...obj.metadata, labels: { changed: 'yes' } } };
    const copied = Buffer.from(encodeRecordingManagedFields(obj));
    const data = encodeRecordingManagedFields(next, undefined, { object: obj, json: copied });
    assert.equal(data.toString('utf8'), goJSONText(next));
  });
});

describe('managedFields a write vouches for', () => {
  const field = (name: string) => ({ kind: 'field', name }) as const;
  const encodedEntry = (manager: string) => ({
    ...(entries[0] as (typeof entries)[number]),
    manager,
    fieldsV1: encodeFieldsV1(FieldSet.of([field('metadata'), field('labels'), field(manager)])),
  });
  const pod = (managedFields: unknown[]): KubeObject => ({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: 'p', managedFields: managedFields as [] },
  });
  const fieldsOf = (obj: KubeObject): unknown[] => (obj.metadata?.managedFields ?? []).map((e) => e.fieldsV1);

  it('trusts the bytes only when every entry was encoded from a field set, and serving keeps that', () => {
    const trusted = encodeRecordingManagedFields(pod([encodedEntry('a'), encodedEntry('b')]));
    assert.equal(managedFieldsSpanOf(trusted)?.trusted, true);
    const served = servedOfWrite({}, trusted, 7);
    assert.equal(served !== null && managedFieldsSpanOf(served.json)?.trusted, true);
    // A FieldsV1 from anywhere else (a client, a plugin) leaves the bytes untrusted.
    const mixed = encodeRecordingManagedFields(pod([encodedEntry('a'), ...entries]));
    assert.equal(managedFieldsSpanOf(mixed)?.trusted, false);
  });

  for (const [name, codec] of [
    ['the JSON codec', jsonCodec],
    ["the built-in kinds' codec (Go order, zero members dropped)", builtinJSONCodec(builtinScheme())],
  ] as const) {
    it(`${name}: a decode marks the entries of trusted bytes, and of no others`, () => {
      const written = pod([encodedEntry('a'), encodedEntry('b')]);
      const data = codec.encodeInOrder(codec.inOrder(written));
      const decoded = codec.decode(data);
      assert.deepEqual(decoded.metadata?.managedFields, written.metadata?.managedFields);
      for (const f of fieldsOf(decoded)) assert.equal(isKnownCanonicalFieldsV1(f), true);
      const served = servedOfWrite({}, data, 9);
      assert.ok(served !== null);
      for (const f of fieldsOf(codec.decode(served.json))) assert.equal(isKnownCanonicalFieldsV1(f), true);
      // The same bytes copied (read back from storage, from another server) carry no span.
      for (const f of fieldsOf(codec.decode(Buffer.from(data))))
        assert.equal(isKnownCanonicalFieldsV1(f), false);
      const untrusted = codec.encodeInOrder(codec.inOrder(pod([encodedEntry('a'), ...entries])));
      for (const f of fieldsOf(codec.decode(untrusted))) assert.equal(isKnownCanonicalFieldsV1(f), false);
    });
  }
});
