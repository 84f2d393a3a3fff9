// The parts of a PUT body that repeat the live object's bytes (its managedFields, top-level members
// with object values) left out of its decode, and taken from the live object by the try that has it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KubeObject } from '../../api/meta.js';
import { goJSONText } from '../../machinery/json/go-json-text.js';
import { podArbitrary } from '../../machinery/patch/testing/pod-arbitrary.js';
import { StructuralDecoder } from '../../machinery/structural/index.js';
import { encodeRecordingManagedFields } from '../../storage/managed-fields-span.js';
import { servedOfWrite } from '../../storage/served-json.js';
import { jsonSerializer } from '../negotiation/media-types.js';
import { decodeCutObject, decodeObject, type DecodeObjectOptions } from '../request/decode-object.js';
import { structuralDecoderFor } from '../request/structural-adapter.js';
import { completingFromLive, cutLive, type LiveCut } from './live-cut.js';
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

const scheme = builtinScheme();
const structural = structuralDecoderFor(scheme, new StructuralDecoder(scheme));
const optsFor = (kind: string): DecodeObjectOptions => ({
  expected: { group: '', version: 'v1', kind },
  serializer: jsonSerializer,
  fieldValidation: 'Strict',
  kinds: scheme,
  structural,
  addWarning: () => undefined,
});
const opts = optsFor('ConfigMap');

const ctx = {} as Parameters<ReturnType<typeof defaultUpdatedObjectInfo>['updatedObject']>[0];

/** The body decoded with its cut parts left out, then completed from `old`. */
function decodedCut(body: Buffer, cut: LiveCut, old: KubeObject, o = opts): KubeObject | undefined {
  const obj = decodeCutObject(body, cut, o);
  if (obj === undefined) return undefined;
  assert.equal(completingFromLive(cut)(obj, old), true);
  return obj;
}

const edit = (json: Buffer, from: string, to: string): Buffer => {
  const text = json.toString('utf8');
  assert.ok(text.includes(from), from);
  return Buffer.from(text.replace(from, to));
};

describe('parts of a PUT body cut out where they repeat the live bytes', () => {
  it('decodes a body without its managedFields and members, and completes it as the whole body', () => {
    const json = servedLive();
    const body = edit(json, '"a":"1"', '"a":"2"');
    const cut = cutLive(body, json);
    assert.ok(cut !== undefined);
    assert.equal(cut.resourceVersion, '7');
    assert.deepEqual(cut.members, ['data']);
    const whole = decodeObject(body, opts);
    const decoded = decodeCutObject(body, cut, opts);
    assert.ok(decoded !== undefined);
    const { managedFields: _m, ...meta } = whole.metadata ?? {};
    assert.deepEqual(decoded, { ...whole, metadata: meta, data: {} });
    assert.deepEqual(JSON.parse(cut.raw), { ...JSON.parse(body.toString('utf8')), metadata: meta, data: {} });
    const old = decodeObject(json, opts);
    assert.equal(completingFromLive(cut)(decoded, old), true);
    assert.deepEqual(decoded, whole);
    assert.notEqual(decoded['data'], old['data'], 'a copy of the live member');
  });

  it('cuts what still repeats: the members before the first that differs, nothing without managedFields', () => {
    const json = servedLive({ ...live, binaryData: { b: 'AA==' } });
    assert.equal(cutLive(edit(json, '10:00:00Z', '10:00:01Z'), json), undefined);
    assert.deepEqual(cutLive(edit(json, '"k":"v"', '"k":"w"'), json)?.members, []);
    assert.deepEqual(cutLive(edit(json, '"AA=="', '"AQ=="'), json)?.members, ['data']);
    assert.deepEqual(cutLive(json, json)?.members, ['data', 'binaryData']);
    const spaced = Buffer.from(JSON.stringify(JSON.parse(json.toString('utf8')), null, 1));
    assert.equal(cutLive(spaced, json), undefined);
    assert.equal(cutLive(json, Buffer.from(json)), undefined, 'bytes no write recorded');
    const none = Buffer.from(goJSONText({ ...live, metadata: { name: 'c' }, data: { k: 'w' } }));
    assert.equal(cutLive(none, json), undefined);
  });

  it('decodes the whole body when a cut lands elsewhere than where it was looked for', () => {
    const json = servedLive();
    const text = goJSONText(entries);
    // The same bytes first in a nested object: the cut lands there, the parse finds the marker
    // away from metadata.managedFields.
    const nested = Buffer.from(
      `{"kind":"ConfigMap","apiVersion":"v1","data":{"k":"{\\"x\\":1}"},"spec":{"metadata":{"managedFields":${text}}},"metadata":{"name":"c","managedFields":${text}}}`,
    );
    const cut = cutLive(nested, json);
    assert.ok(cut !== undefined);
    assert.equal(decodeCutObject(nested, cut, { ...opts, fieldValidation: 'Ignore' }), undefined);
    // A repeated member after the live bytes takes the marker's place in the parse.
    const repeatedAfter = edit(json, '"data":{"k":"v"}', '"data":{"k":"v"},"data":{"k":"w"}');
    const after = cutLive(repeatedAfter, json);
    assert.deepEqual(after?.members, ['data']);
    assert.equal(decodeCutObject(repeatedAfter, after, { ...opts, fieldValidation: 'Ignore' }), undefined);
    // One before them: the member is not where the live one was.
    const repeatedBefore = edit(json, '"data":{"k":"v"}', '"data":{"k":"w"},"data":{"k":"v"}');
    assert.deepEqual(cutLive(repeatedBefore, json)?.members, []);
    // One before metadata: the parse keeps the key there.
    const beforeMetadata = edit(json, '"metadata":', '"data":{"k":"w"},"metadata":');
    const early = cutLive(beforeMetadata, json);
    assert.deepEqual(early?.members, ['data']);
    assert.equal(decodeCutObject(beforeMetadata, early, { ...opts, fieldValidation: 'Ignore' }), undefined);
  });

  it('reports the whole body’s errors in the rest of it, and repeats found in the rest', () => {
    // binaryData first, so that it repeats the live bytes where data no longer does.
    const { data, ...rest } = live;
    const json = servedLive({ ...rest, binaryData: { b: 'AA==' }, data });
    const wrongType = edit(json, '"data":{"k":"v"}', '"data":{"k":5}');
    const repeated = edit(json, '"labels":{"a":"1"}', '"labels":{"a":"1","a":"2"}');
    for (const [body, message] of [
      [wrongType, /cannot unmarshal number/],
      [repeated, /duplicate field/],
    ] as const) {
      const cut = cutLive(body, json);
      assert.ok(cut !== undefined && cut.members.includes('binaryData'));
      assert.throws(
        () => decodeObject(body, opts),
        (whole: Error) => {
          assert.match(whole.message, message);
          assert.throws(
            () => decodeCutObject(body, cut, opts),
            (err: Error) => err.message === whole.message,
          );
          return true;
        },
      );
    }
  });

  it('leaves no shape behind for bodies with the stand-ins’ shape to skip their walk with', () => {
    const podOpts = optsFor('Pod');
    const pod = { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p', labels: { a: '1' } }, spec: {} };
    const decoded = decodeObject(Buffer.from(JSON.stringify(pod)), podOpts);
    const json = servedLive({ ...decoded, metadata: { ...decoded.metadata, managedFields: entries } });
    const body = edit(json, '"a":"1"', '"a":"2"');
    const cut = cutLive(body, json);
    assert.deepEqual(cut?.members, ['spec', 'status']);
    for (let i = 0; i < 3; i++) assert.deepEqual(decodeCutObject(body, cut, podOpts)?.['spec'], {});
    // The raw text is such a body: its empty spec gets the defaults.
    const same = decodeObject(Buffer.from(cut.raw), podOpts);
    assert.equal((same['spec'] as { dnsPolicy?: string }).dnsPolicy, 'ClusterFirst');
  });

  it('completes generated pods’ bodies, edited in many ways, as their whole decode', () => {
    const podOpts = optsFor('Pod');
    const edits: readonly ((text: string, other: string) => string)[] = [
      (t) => t.replace('"name":"p"', '"name":"p","labels":{"l":"1"}'),
      (t, other) => t.replace(/"spec":\{.*\},"status"/, `"spec":${other},"status"`),
      (t) => t.replace('"status":{', '"status":{"message":"m",'),
      (t) => t,
      (t, other) => t.replace('"status":{', `"spec":${other},"status":{`),
      (t, other) => t.replace('"spec":{', `"spec":${other},"spec":{`),
      (t) => t.replace(/"status":\{/, `"status":{"spec":${/"spec":(\{.*\}),"status"/.exec(t)?.[1]},`),
      (t, other) => t.replace('"metadata":', `"spec":${other},"metadata":`),
    ];
    fc.assert(
      fc.property(podArbitrary, podArbitrary, fc.nat(edits.length - 1), (a, b, e) => {
        // In Go's member order, as the server encodes objects.
        const pod = (p: object): Buffer =>
          Buffer.from(JSON.stringify({ kind: 'Pod', apiVersion: 'v1', ...p, status: { phase: 'Pending' } }));
        const decodedLive = decodeObject(pod(a), podOpts);
        const withEntries = { ...decodedLive, metadata: { ...decodedLive.metadata, managedFields: entries } };
        const json = servedLive(withEntries);
        const old = decodeObject(json, podOpts);
        const other = goJSONText(decodeObject(pod(b), podOpts)['spec']);
        const body = Buffer.from(edits[e]!(json.toString('utf8'), other));
        for (const fieldValidation of ['Strict', 'Ignore'] as const) {
          const o = { ...podOpts, fieldValidation };
          let whole: KubeObject | Error;
          try {
            whole = decodeObject(body, o);
          } catch (err) {
            whole = err as Error;
          }
          const cut = cutLive(body, json);
          if (cut === undefined) continue;
          let viaCut: KubeObject | Error | undefined;
          try {
            viaCut = decodedCut(body, cut, old, o);
          } catch (err) {
            viaCut = err as Error;
          }
          if (viaCut === undefined) continue;
          if (whole instanceof Error) assert.equal((viaCut as Error).message, whole.message);
          else assert.deepEqual(viaCut, whole);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives the first try the live parts when it has that revision, else the whole decode', async () => {
    const obj = (): KubeObject => ({ kind: 'ConfigMap', metadata: { name: 'c', uid: 'u' }, data: {} });
    let decodes = 0;
    const whole = (): KubeObject => {
      decodes++;
      return { ...obj(), metadata: { name: 'c', managedFields: [] } };
    };
    const at = (rv: string): KubeObject => ({ ...live, metadata: { ...live.metadata, resourceVersion: rv } });
    const cutAt = (rv: string): LiveCut => ({
      text: '',
      raw: '',
      marker: '',
      members: ['data'],
      resourceVersion: rv,
    });

    const first = obj();
    const info = defaultUpdatedObjectInfo(first, whole, completingFromLive(cutAt('7')));
    assert.deepEqual(info.preconditions(), { uid: 'u' });
    const tried = await info.updatedObject(ctx, at('7'));
    assert.equal(tried, first);
    const listed = tried.metadata?.managedFields;
    assert.notEqual(listed, entries, 'a list of its own');
    assert.deepEqual(listed, entries);
    assert.deepEqual(tried['data'], live['data']);
    assert.notEqual(tried['data'], live['data'], 'a copy of its own');
    assert.equal(decodes, 0);
    await info.updatedObject(ctx, at('7'));
    assert.equal(decodes, 1, 'a retry decodes the body again');

    const behind = defaultUpdatedObjectInfo(obj(), whole, completingFromLive(cutAt('6')));
    assert.deepEqual((await behind.updatedObject(ctx, at('7'))).metadata?.managedFields, []);
    assert.equal(decodes, 2, 'another revision: the whole body');
    const { data: _d, ...without } = at('7');
    const missing = defaultUpdatedObjectInfo(obj(), whole, completingFromLive(cutAt('7')));
    await missing.updatedObject(ctx, without);
    assert.equal(decodes, 3, 'a live object without the member: the whole body');
  });
});
