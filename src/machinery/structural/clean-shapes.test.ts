// A body of a shape whose walk only added defaults gets them without a walk: the decoder that saw
// the shape before decodes every body as one that never saw it does, whatever the body holds
// (unknown members, nulls, zero values, repeated keys, wrong types).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KindInfo } from '../../api/schema/types.js';
import { StructuralDecoder, type FieldValidationDirective } from './decoder.js';

const scheme = builtinScheme();
const kindOf = (kind: string): KindInfo => {
  const info = scheme.kindFor('v1', kind);
  if (info === undefined) throw new Error(kind);
  return info;
};
const pod = kindOf('Pod');

const text: fc.Arbitrary<string> = fc.constantFrom('', 'a', 'app', 'x-1');
/** Values where a member's type or its zero matters, and some that are no member's type. */
const odd = fc.constantFrom<unknown>(null, 0, '', 'x', 7, true, [], {});

/** Pods whose walk adds defaults, and some whose walk drops or refuses something. */
const pods = fc.record({
  name: text,
  /** Masked like the name; a resourceVersion of another type is refused by the walk. */
  uid: fc.option(text, { nil: undefined }),
  resourceVersion: fc.option(fc.oneof(text, odd), { nil: undefined }),
  labels: fc.dictionary(fc.constantFrom('app', 'tier'), text, { maxKeys: 2 }),
  containers: fc.array(
    fc.record({
      name: fc.constantFrom('app', 'side'),
      image: text,
      ports: fc.option(fc.array(fc.record({ containerPort: fc.constantFrom(80, 0) }), { maxLength: 2 }), {
        nil: undefined,
      }),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  volumes: fc.option(
    fc.constantFrom([{ name: 'c', configMap: { name: 'cm' } }], [{ name: 'e', emptyDir: {} }]),
    {
      nil: undefined,
    },
  ),
  /** A member put into the spec: unknown, or known with a value of any type. */
  extra: fc.option(fc.tuple(fc.constantFrom('bogus', 'nodeName', 'priority', 'hostNetwork'), odd), {
    nil: undefined,
  }),
});
type PodCase = typeof pods extends fc.Arbitrary<infer T> ? T : never;

function podBody(p: PodCase): Record<string, unknown> {
  const spec: Record<string, unknown> = { containers: p.containers };
  if (p.volumes !== undefined) spec['volumes'] = p.volumes;
  if (p.extra !== undefined) spec[p.extra[0]] = p.extra[1];
  const metadata: Record<string, unknown> = { name: p.name, labels: p.labels };
  if (p.uid !== undefined) metadata['uid'] = p.uid;
  if (p.resourceVersion !== undefined) metadata['resourceVersion'] = p.resourceVersion;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

/**
 * A second Pod that differs from the first in the masked values only (name, uid, resourceVersion,
 * label values), or in the resourceVersion's type: the same shape, or not.
 */
const renamed = fc.record({ name: text, uid: text, resourceVersion: fc.oneof(text, odd), label: text });
const variant = (
  p: PodCase,
  r: { name: string; uid: string; resourceVersion: unknown; label: string },
): PodCase => ({
  ...p,
  name: r.name,
  uid: p.uid === undefined ? undefined : r.uid,
  resourceVersion: p.resourceVersion === undefined ? undefined : r.resourceVersion,
  labels: Object.fromEntries(Object.keys(p.labels).map((k) => [k, r.label])),
});

const decode = (
  decoder: StructuralDecoder,
  kind: KindInfo,
  body: string,
  fieldValidation: FieldValidationDirective = 'Strict',
) => {
  const result = decoder.decodeParsed({ value: JSON.parse(body) as unknown, text: body }, kind, {
    fieldValidation,
  });
  return { object: JSON.stringify(result.object), error: result.error, strictErrors: result.strictErrors };
};

describe('clean shapes: a body of a known shape decodes as a body of a new one', () => {
  it('decodes every Pod as a decoder that never saw its shape does', () => {
    const shared = new StructuralDecoder(scheme);
    fc.assert(
      fc.property(
        pods,
        renamed,
        fc.constantFrom<FieldValidationDirective>('Strict', 'Warn', 'Ignore'),
        (p, r, mode) => {
          const first = JSON.stringify(podBody(p));
          const second = JSON.stringify(podBody(variant(p, r)));
          // The first body's shape is remembered, found by its key, then compared with the second
          // body: by a decoder that saw only these, and by one that saw every run's (it keys fewer
          // once most were new shapes).
          for (const decoder of [new StructuralDecoder(scheme), shared])
            for (const body of [first, first, second, second]) {
              assert.deepEqual(
                decode(decoder, pod, body, mode),
                decode(new StructuralDecoder(scheme), pod, body, mode),
              );
            }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a body of a known shape that repeats a key is decoded from its text, as any body with repeats', () => {
    const decoder = new StructuralDecoder(scheme);
    const body = (name: string, image: string) =>
      `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"${name}"},"spec":{"containers":[{"name":"app","image":"${image}"}]}}`;
    for (const name of ['a', 'b', 'c']) decode(decoder, pod, body(name, 'i'));
    // The same shape once JSON.parse has kept the last of the repeated image.
    const repeated = body('d', 'i').replace('"image":"i"', '"image":"x","image":"i"');
    const got = decode(decoder, pod, repeated);
    assert.deepEqual(got, decode(new StructuralDecoder(scheme), pod, repeated));
    assert.deepEqual(got.strictErrors, ['duplicate field "spec.containers[0].image"']);
  });

  it('fills in the defaults of the shape, each body its own copy of an object default', () => {
    const decoder = new StructuralDecoder(scheme);
    const body = (name: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name },
        spec: { containers: [{ name: 'a', image: 'i' }] },
      });
    const objects = ['a', 'b', 'c'].map(
      (name) =>
        decoder.decodeParsed({ value: JSON.parse(body(name)) as unknown, text: body(name) }, pod, {
          fieldValidation: 'Strict',
        }).object as { spec: Record<string, unknown> },
    );
    const [, b, c] = objects;
    assert.ok(b !== undefined && c !== undefined);
    assert.equal(b.spec['dnsPolicy'], 'ClusterFirst');
    assert.deepEqual(b.spec['securityContext'], {});
    assert.notEqual(b.spec['securityContext'], c.spec['securityContext']);
  });
});
