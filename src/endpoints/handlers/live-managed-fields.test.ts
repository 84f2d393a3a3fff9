// A PUT body's managedFields left out of its decode when they repeat the live object's bytes, and
// taken from the live object by the try that has it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KubeObject } from '../../api/meta.js';
import { goJSONText } from '../../machinery/json/go-json-text.js';
import { StructuralDecoder } from '../../machinery/structural/index.js';
import { encodeRecordingManagedFields } from '../../storage/managed-fields-span.js';
import { servedOfWrite } from '../../storage/served-json.js';
import { jsonSerializer } from '../negotiation/media-types.js';
import { decodeCutObject, decodeObject, type DecodeObjectOptions } from '../request/decode-object.js';
import { structuralDecoderFor } from '../request/structural-adapter.js';
import { cutLiveManagedFields, withLiveManagedFields } from './live-managed-fields.js';
import { defaultUpdatedObjectInfo } from './update.js';

const entries = [
  {
    manager: 'kubectl-create',
    operation: 'Update' as const,
    apiVersion: 'v1',
    time: '2026-11-29T10:00:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { 'f:a': {} } } },
  },
];

const live: KubeObject = {
  kind: 'ConfigMap',
  apiVersion: 'v1',
  metadata: { name: 'c', namespace: 'n', uid: 'u', labels: { a: '1' }, managedFields: entries },
  data: { k: 'v' },
};

/** The live object's served JSON as a write leaves it, at resourceVersion 7. */
function servedLive(obj: KubeObject = live): Buffer {
  const served = servedOfWrite({}, encodeRecordingManagedFields(obj), 7);
  assert.ok(served !== null);
  return served.json;
}

const opts: DecodeObjectOptions = {
  expected: { group: '', version: 'v1', kind: 'ConfigMap' },
  serializer: jsonSerializer,
  fieldValidation: 'Strict',
  kinds: builtinScheme(),
  structural: structuralDecoderFor(builtinScheme(), new StructuralDecoder(builtinScheme())),
  addWarning: () => undefined,
};

const ctx = {} as Parameters<ReturnType<typeof defaultUpdatedObjectInfo>['updatedObject']>[0];

describe('managedFields cut out of a PUT body', () => {
  it('decodes a body that repeats the live bytes as the whole body, without them', () => {
    const json = servedLive();
    const body = Buffer.from(json.toString('utf8').replace('"a":"1"', '"a":"2"'));
    const cut = cutLiveManagedFields(body, json);
    assert.ok(cut !== undefined);
    assert.equal(cut.resourceVersion, '7');
    const decoded = decodeCutObject(body, cut, opts);
    const whole = decodeObject(body, opts);
    assert.ok(decoded !== undefined);
    assert.deepEqual(whole.metadata?.managedFields, entries);
    const { managedFields: _m, ...meta } = whole.metadata ?? {};
    assert.deepEqual(decoded, { ...whole, metadata: meta });
    assert.deepEqual(JSON.parse(cut.raw), { ...JSON.parse(body.toString('utf8')), metadata: meta });
  });

  it('cuts nothing where the bytes differ, or were not recorded by a write', () => {
    const json = servedLive();
    const changed = Buffer.from(json.toString('utf8').replace('10:00:00Z', '10:00:01Z'));
    assert.equal(cutLiveManagedFields(changed, json), undefined);
    const spaced = Buffer.from(JSON.stringify(JSON.parse(json.toString('utf8')), null, 1));
    assert.equal(cutLiveManagedFields(spaced, json), undefined);
    assert.equal(cutLiveManagedFields(json, Buffer.from(json)), undefined);
    const none = Buffer.from(goJSONText({ ...live, metadata: { name: 'c' } }));
    assert.equal(cutLiveManagedFields(none, json), undefined);
  });

  it('decodes the whole body when the member cut first is not top-level metadata’s', () => {
    const json = servedLive();
    const text = goJSONText(entries);
    // The same bytes first in a nested object: the cut lands there, the parse finds the marker
    // away from metadata.managedFields.
    const body = Buffer.from(
      `{"kind":"ConfigMap","apiVersion":"v1","data":{"k":"{\\"x\\":1}"},"spec":{"metadata":{"managedFields":${text}}},"metadata":{"name":"c","managedFields":${text}}}`,
    );
    const cut = cutLiveManagedFields(body, json);
    assert.ok(cut !== undefined);
    assert.equal(decodeCutObject(body, cut, { ...opts, fieldValidation: 'Ignore' }), undefined);
  });

  it('reports the whole body’s errors in the rest of it, and repeats found in the rest', () => {
    const json = servedLive();
    const wrongType = Buffer.from(json.toString('utf8').replace('"data":{"k":"v"}', '"data":{"k":5}'));
    const cut = cutLiveManagedFields(wrongType, json);
    assert.ok(cut !== undefined);
    assert.throws(
      () => decodeObject(wrongType, opts),
      (whole: Error) => {
        assert.throws(
          () => decodeCutObject(wrongType, cut, opts),
          (err: Error) => err.message === whole.message,
        );
        return true;
      },
    );
    const repeated = Buffer.from(
      json.toString('utf8').replace('"labels":{"a":"1"}', '"labels":{"a":"1","a":"2"}'),
    );
    const cutRepeated = cutLiveManagedFields(repeated, json);
    assert.ok(cutRepeated !== undefined);
    assert.throws(
      () => decodeObject(repeated, opts),
      (whole: Error) => {
        assert.match(whole.message, /duplicate field/);
        assert.throws(
          () => decodeCutObject(repeated, cutRepeated, opts),
          (err: Error) => err.message === whole.message,
        );
        return true;
      },
    );
  });

  it('gives the first try the live entries when it has that revision, else the whole decode', async () => {
    const obj = (): KubeObject => ({ kind: 'ConfigMap', metadata: { name: 'c', uid: 'u' } });
    let decodes = 0;
    const whole = (): KubeObject => {
      decodes++;
      return { ...obj(), metadata: { name: 'c', managedFields: [] } };
    };
    const at = (rv: string): KubeObject => ({ ...live, metadata: { ...live.metadata, resourceVersion: rv } });

    const first = obj();
    const info = defaultUpdatedObjectInfo(first, whole, withLiveManagedFields('7'));
    assert.deepEqual(info.preconditions(), { uid: 'u' });
    const tried = await info.updatedObject(ctx, at('7'));
    assert.equal(tried, first);
    const listed = tried.metadata?.managedFields;
    assert.notEqual(listed, entries, 'a list of its own');
    assert.deepEqual(listed, entries);
    assert.equal(decodes, 0);
    await info.updatedObject(ctx, at('7'));
    assert.equal(decodes, 1, 'a retry decodes the body again');

    const behind = defaultUpdatedObjectInfo(obj(), whole, withLiveManagedFields('6'));
    assert.deepEqual((await behind.updatedObject(ctx, at('7'))).metadata?.managedFields, []);
    assert.equal(decodes, 2, 'another revision: the whole body');
  });
});
