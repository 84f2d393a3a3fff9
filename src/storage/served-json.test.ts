import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import { inSortedMemberOrder } from '../machinery/json/sorted-members.js';
import { servedFromObject } from './encoded-reads.js';
import { encodeRecordingManagedFields, managedFieldsSpanOf } from './managed-fields-span.js';
import {
  attachServedJSON,
  isStoredBytes,
  locateResourceVersion,
  metadataBodyOffset,
  placeResourceVersion,
  servedJSONOf,
  servedOfWrite,
  spliceResourceVersion,
  storedBytes,
  withResourceVersion,
} from './served-json.js';

const bytes = (v: unknown, indent?: number): Buffer => Buffer.from(JSON.stringify(v, null, indent));

const shapes: Record<string, unknown> = {
  'metadata first': { metadata: { name: 'a' }, spec: { x: 1 } },
  'after type meta': { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', labels: { k: 'v' } } },
  'after a nested metadata': {
    spec: { template: { metadata: { name: 'inner' } }, list: [{ metadata: {} }, '{"metadata":{'] },
    metadata: { name: 'outer' },
  },
  'after strings with quotes, braces and escapes': {
    a: 'x"}{][\\',
    b: ['"', { c: '\\"metadata\\":{' }],
    n: -1.5e3,
    t: true,
    z: null,
    metadata: { namespace: 'ns' },
  },
  'empty metadata': { kind: 'Thing', metadata: {} },
  'identity members only': { kind: 'Thing', metadata: { name: 'a', namespace: 'n', uid: 'u' }, spec: {} },
  'metadata last of many': { a: 1, b: [1, 2, [3]], c: { d: { e: {} } }, metadata: { name: 'x' } },
};

describe('served JSON', () => {
  for (const [name, obj] of Object.entries(shapes)) {
    for (const indent of [undefined, 2]) {
      it(`splices resourceVersion into ${name}${indent === undefined ? '' : ' (indented)'}`, () => {
        const stored = bytes(obj, indent);
        const served = spliceResourceVersion(stored, 42);
        assert.ok(served !== null);
        const parsed = JSON.parse(served.json.toString()) as { metadata: Record<string, unknown> };
        const expected = structuredClone(obj) as { metadata: Record<string, unknown> };
        expected.metadata['resourceVersion'] = '42';
        assert.deepEqual(parsed, expected);
        assert.ok(storedBytes(served).equals(stored));
        const later = withResourceVersion(served, 1234567);
        const reparsed = JSON.parse(later.json.toString()) as { metadata: Record<string, unknown> };
        expected.metadata['resourceVersion'] = '1234567';
        assert.deepEqual(reparsed, expected);
        assert.ok(storedBytes(later).equals(stored));
      });
    }
  }

  it('puts resourceVersion where Go puts it in ObjectMeta: after name, namespace and uid', () => {
    const at = (json: string) => spliceResourceVersion(Buffer.from(json), 5)?.json.toString();
    assert.equal(
      at('{"kind":"A","metadata":{"name":"a","uid":"u","creationTimestamp":"t"}}'),
      '{"kind":"A","metadata":{"name":"a","uid":"u","resourceVersion":"5","creationTimestamp":"t"}}',
    );
    assert.equal(
      at('{"metadata":{"name":"a","uid":"u"}}'),
      '{"metadata":{"name":"a","uid":"u","resourceVersion":"5"}}',
    );
    assert.equal(at('{"metadata":{"labels":{}}}'), '{"metadata":{"resourceVersion":"5","labels":{}}}');
  });

  it('finds no metadata where there is none or it is not an object', () => {
    for (const text of ['{}', '{"a":1}', '{"metadata":null}', '{"metadata":"x"}', '[]', '"s"', '{"a":', '']) {
      assert.equal(metadataBodyOffset(Buffer.from(text)), -1, text);
      assert.equal(spliceResourceVersion(Buffer.from(text), 1), null, text);
    }
  });

  it('does not take a nested or quoted metadata for the top-level one', () => {
    const text = '{"spec":{"metadata":{"a":1}},"s":"\\"metadata\\":{","metadata":{"name":"n"}}';
    const at = metadataBodyOffset(Buffer.from(text));
    assert.equal(text.slice(at - '"metadata":{'.length, at), '"metadata":{');
    assert.equal(text.slice(at, at + 6), '"name"');
  });
});

describe('locateResourceVersion', () => {
  it('finds the member spliceResourceVersion put in, and nothing in other JSON', () => {
    for (const obj of Object.values(shapes)) {
      const served = spliceResourceVersion(bytes(obj), 7);
      assert.ok(served !== null);
      assert.deepEqual(locateResourceVersion(served.json), served);
    }
    // Spliced after name and uid, where Go's ObjectMeta has it; never after a later member.
    assert.equal(
      locateResourceVersion(Buffer.from('{"metadata":{"name":"a","labels":{},"resourceVersion":"1"}}')),
      null,
    );
    assert.equal(locateResourceVersion(Buffer.from('{"metadata":{}}')), null);
  });
});

describe('isStoredBytes', () => {
  it('knows the stored bytes in served JSON without putting them together, and nothing else', () => {
    for (const obj of Object.values(shapes)) {
      const stored = bytes(obj);
      const served = spliceResourceVersion(stored, 42);
      assert.ok(served !== null);
      assert.equal(isStoredBytes(served, stored), true);
      assert.equal(isStoredBytes(served, storedBytes(served)), true);
      assert.equal(isStoredBytes(served, served.json), false);
      // One byte other: first, just before the cut, just after it, last; a byte more or fewer.
      for (const at of [0, served.rvStart - 1, served.rvStart, stored.length - 1]) {
        const other = Buffer.from(stored);
        other[at] = (other[at] ?? 0) ^ 1;
        assert.equal(isStoredBytes(served, other), false, `byte ${at}`);
      }
      assert.equal(isStoredBytes(served, Buffer.concat([stored, Buffer.from(' ')])), false);
      assert.equal(isStoredBytes(served, stored.subarray(0, -1)), false);
    }
  });
});

describe('served JSON of custom resources (stored as a sorted map)', () => {
  const at = (json: string): string | undefined =>
    spliceResourceVersion(Buffer.from(json), 5)?.json.toString();

  it('puts resourceVersion among sorted metadata members where it sorts', () => {
    assert.equal(
      at(
        '{"apiVersion":"e/v1","kind":"W","metadata":{"annotations":{},"name":"a","namespace":"d","uid":"u"}}',
      ),
      '{"apiVersion":"e/v1","kind":"W","metadata":{"annotations":{},"name":"a","namespace":"d","resourceVersion":"5","uid":"u"}}',
    );
    assert.equal(
      at('{"apiVersion":"e/v1","kind":"W","metadata":{"managedFields":[{"a":1}],"name":"a"},"spec":{}}'),
      '{"apiVersion":"e/v1","kind":"W","metadata":{"managedFields":[{"a":1}],"name":"a","resourceVersion":"5"},"spec":{}}',
    );
    assert.equal(
      at('{"apiVersion":"e/v1","kind":"W","metadata":{"uid":"u"}}'),
      '{"apiVersion":"e/v1","kind":"W","metadata":{"resourceVersion":"5","uid":"u"}}',
    );
    // A struct starts with kind: Go's ObjectMeta order, as before.
    assert.equal(
      at('{"kind":"W","apiVersion":"e/v1","metadata":{"name":"a","namespace":"d","uid":"u"}}'),
      '{"kind":"W","apiVersion":"e/v1","metadata":{"name":"a","namespace":"d","uid":"u","resourceVersion":"5"}}',
    );
  });

  it('steps over the managedFields the encoder recorded, to the same place as a walk through them', () => {
    const obj = inSortedMemberOrder({
      apiVersion: 'e/v1',
      kind: 'W',
      metadata: {
        name: 'a',
        namespace: 'd',
        managedFields: [
          {
            manager: 'm',
            operation: 'Update',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { 'f:x': {} } },
          },
          { manager: 'n]"}', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': {} } },
        ],
        uid: 'u',
      },
      spec: { x: 1 },
    }) as KubeObject;
    const recorded = encodeRecordingManagedFields(obj);
    assert.ok(managedFieldsSpanOf(recorded) !== undefined);
    const plain = Buffer.from(recorded);
    assert.equal(managedFieldsSpanOf(plain), undefined);
    const served = spliceResourceVersion(recorded, 7)?.json.toString();
    assert.equal(served, spliceResourceVersion(plain, 7)?.json.toString());
    assert.match(served ?? '', /"namespace":"d","resourceVersion":"7","uid":"u"/);
  });

  it('knows a map by apiVersion before kind when members that sort first precede them ("7", "Zeta")', () => {
    const stored =
      '{"7":1,"Zeta":2,"apiVersion":"e/v1","b":3,"kind":"W","metadata":{"creationTimestamp":"t","name":"a","uid":"u"}}';
    const want =
      '{"7":1,"Zeta":2,"apiVersion":"e/v1","b":3,"kind":"W","metadata":{"creationTimestamp":"t","name":"a","resourceVersion":"5","uid":"u"}}';
    assert.equal(at(stored), want);
    // The same placement in a decoded object, and the same choice of codec for one from storage.
    const obj = JSON.parse(stored) as KubeObject;
    placeResourceVersion(obj, 5);
    assert.deepEqual(Object.keys(obj.metadata ?? {}), [
      'creationTimestamp',
      'name',
      'resourceVersion',
      'uid',
    ]);
    assert.equal(servedFromObject(obj).json.toString(), want);
  });

  it('finds the spliced member again, and moves it to another revision', () => {
    const stored = Buffer.from(
      '{"apiVersion":"e/v1","kind":"W","metadata":{"creationTimestamp":"t","name":"a","uid":"u"},"spec":{"x":1}}',
    );
    const served = spliceResourceVersion(stored, 7);
    assert.ok(served !== null);
    assert.deepEqual(locateResourceVersion(served.json), served);
    const later = withResourceVersion(served, 12);
    assert.equal(
      later.json.toString(),
      '{"apiVersion":"e/v1","kind":"W","metadata":{"creationTimestamp":"t","name":"a","resourceVersion":"12","uid":"u"},"spec":{"x":1}}',
    );
    assert.ok(storedBytes(later).equals(stored));
    // Not where sorted order puts it: not found.
    assert.equal(
      locateResourceVersion(
        Buffer.from('{"apiVersion":"e/v1","kind":"W","metadata":{"uid":"u","resourceVersion":"1"}}'),
      ),
      null,
    );
  });
});

describe('attached served JSON', () => {
  it('stays with its holder, out of sight of copies, comparisons and JSON', () => {
    const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
    const json = bytes(obj);
    attachServedJSON(obj, json);
    assert.equal(servedJSONOf(obj), json);
    assert.equal(servedJSONOf({ ...obj }), undefined);
    assert.equal(servedJSONOf(structuredClone(obj)), undefined);
    assert.deepStrictEqual(obj, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    assert.equal(JSON.stringify(obj), json.toString());
    const again = bytes({ ...obj, data: { k: 'v' } });
    attachServedJSON(obj, again);
    assert.equal(servedJSONOf(obj), again);
  });
});

describe('servedOfWrite', () => {
  it('splices once per object and revision, and serves a frozen object without keeping anything', () => {
    const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
    const stored = bytes(obj);
    const first = servedOfWrite(obj, stored, 5);
    assert.equal(
      first?.json.toString(),
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"5"}}',
    );
    assert.equal(servedOfWrite(obj, stored, 5), first);
    assert.notEqual(servedOfWrite(obj, stored, 6), first);
    assert.deepStrictEqual(obj, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    const frozen = Object.freeze({ ...obj });
    assert.deepEqual(servedOfWrite(frozen, stored, 5), first);
  });
});
