// A patched object's parts that are copies of the live object's (decoded before) are not walked:
// decoding the patched object that way gives what walking all of it gives, for any mix of live
// parts and fresh ones (with unknown members, nulls, missing defaults, wrong types).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KindInfo } from '../../api/schema/types.js';
import { copyAsJSON, copyAsJSONNotingShared } from '../json/copy-as-json.js';
import { StructuralDecoder, type FieldValidationDirective } from './decoder.js';

const scheme = builtinScheme();
const pod = scheme.kindFor('v1', 'Pod') as KindInfo;
const decoder = new StructuralDecoder(scheme);

type JSONObject = Record<string, unknown>;

/** Values that a member's type, or Go's zero, makes something of; some are no member's type. */
const odd = fc.constantFrom<unknown>(null, 0, '', 'x', 3, false, [], {});

const container = fc.record(
  {
    name: fc.constantFrom('app', 'side'),
    image: fc.constantFrom('nginx', ''),
    ports: fc.array(fc.record({ containerPort: fc.constantFrom(80, 0), protocol: odd }), { maxLength: 2 }),
    env: fc.array(
      fc.record({
        name: fc.constantFrom('A', 'B'),
        valueFrom: fc.constant({ fieldRef: { fieldPath: 'x' } }),
      }),
      { maxLength: 1 },
    ),
    bogus: odd,
  },
  { requiredKeys: ['name'] },
);

/** A Pod body as a client may send it: unknown members, nulls, values of other types. */
const podBody = fc.record({
  metadata: fc.record({
    name: fc.constantFrom('p', 'q'),
    labels: fc.dictionary(fc.constantFrom('app', 'tier'), fc.constantFrom('a', ''), { maxKeys: 2 }),
    annotations: fc.option(odd, { nil: undefined }),
  }),
  spec: fc.record(
    {
      containers: fc.array(container, { minLength: 1, maxLength: 2 }),
      volumes: fc.constantFrom([{ name: 'c', configMap: { name: 'cm' } }], [{ name: 'e', emptyDir: null }]),
      priority: odd,
      bogus: odd,
    },
    { requiredKeys: ['containers'] },
  ),
  status: fc.option(fc.record({ phase: odd }), { nil: undefined }),
});

const decodeAll = (value: unknown, mode: FieldValidationDirective, decoded?: WeakSet<object>) => {
  const r = decoder.decodeValue(value, pod, { fieldValidation: mode, decoded });
  return { object: JSON.stringify(r.object), error: r.error, strictErrors: r.strictErrors };
};

/** Which of the live object's parts a patch keeps; the others come from a fresh body. */
const keeps = fc.record({
  metadata: fc.boolean(),
  spec: fc.boolean(),
  containers: fc.boolean(),
  firstContainer: fc.boolean(),
  volumes: fc.boolean(),
  status: fc.boolean(),
});
type Keeps = typeof keeps extends fc.Arbitrary<infer T> ? T : never;

/** A patched object as a patch builds it: the live object's own parts where kept, fresh ones elsewhere. */
function patchedFrom(live: JSONObject, fresh: JSONObject, k: Keeps): JSONObject {
  const pick = (keep: boolean, a: unknown, b: unknown): unknown => (keep ? a : copyAsJSON(b));
  const liveSpec = live['spec'] as JSONObject;
  const freshSpec = fresh['spec'] as JSONObject;
  let spec: unknown = liveSpec;
  if (!k.spec) {
    const liveContainers = liveSpec['containers'] as unknown[];
    const freshContainers = freshSpec['containers'] as unknown[];
    const containers = k.containers
      ? liveContainers
      : [pick(k.firstContainer, liveContainers[0], freshContainers[0]), ...freshContainers.slice(1)];
    spec = { ...freshSpec, containers, volumes: pick(k.volumes, liveSpec['volumes'], freshSpec['volumes']) };
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: pick(k.metadata, live['metadata'], fresh['metadata']),
    spec,
    status: pick(k.status, live['status'], fresh['status']),
  };
}

describe('decoding with parts known decoded', () => {
  it('gives what walking the whole patched object gives', () => {
    fc.assert(
      fc.property(
        podBody,
        podBody,
        keeps,
        fc.constantFrom<FieldValidationDirective>('Strict', 'Warn', 'Ignore'),
        (first, second, k, mode) => {
          const body = (p: typeof first): JSONObject => ({ apiVersion: 'v1', kind: 'Pod', ...p });
          // The live object: a body as the decoder left it, with no error to refuse it.
          const decodedLive = decoder.decodeValue(body(first), pod, { fieldValidation: 'Ignore' });
          fc.pre(decodedLive.error === undefined);
          const live = decodedLive.object as JSONObject;
          const patched = patchedFrom(live, body(second), k);
          const shared = new WeakSet<object>();
          const copy = copyAsJSONNotingShared(patched, live, shared);
          assert.deepEqual(decodeAll(copy, mode, shared), decodeAll(copyAsJSON(patched), mode));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('leaves a part known decoded as it is, and walks the rest', () => {
    const kept = { name: 'app', image: 'i', bogus: 1, ports: null };
    const walked = { name: 'side', image: 'i', bogus: 1, ports: null };
    const value = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [kept, walked] },
    };
    const result = decoder.decodeValue(value, pod, { fieldValidation: 'Warn', decoded: new WeakSet([kept]) });
    assert.deepEqual(kept, { name: 'app', image: 'i', bogus: 1, ports: null });
    assert.equal(walked.bogus, undefined);
    assert.equal(walked.ports, undefined);
    assert.deepEqual(result.strictErrors, ['unknown field "spec.containers[1].bogus"']);
  });
});
