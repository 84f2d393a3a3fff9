// Create and update requests with generated bodies: a valid object of a kind with one position set
// to an odd value, names and fields it must refuse, and bodies that break parsers.
import fc from 'fast-check';
import { collectionOf, type Target } from './kinds.js';
import { envelope, field } from './protobuf.js';
import { isObject, setAt, type SchemaPath } from './schema-paths.js';
import type { BadRequest } from './server.js';
import { hugeString, oddName, oddValue, rawBody } from './values.js';
import { yamlOf } from './yaml-of.js';

export interface Aim {
  readonly target: Target;
  readonly paths: readonly SchemaPath[];
}

/** Names drawn from a small pool, so that creates, updates and deletes meet the same objects. */
export const poolName = fc.integer({ min: 0, max: 29 }).map((i) => `g${i}`);

// Generated values are JSON values: only undefined itself has no JSON text.
const json = (v: unknown): string => (v === undefined ? 'undefined' : JSON.stringify(v));

/** A valid object of the kind with one schema position set to an odd value (or a few of them). */
export function mutatedObject(aim: Aim): fc.Arbitrary<{ obj: unknown; label: string }> {
  const position = fc.constantFrom(...aim.paths);
  const edit = fc.tuple(position, fc.oneof({ arbitrary: oddValue, weight: 20 }, { arbitrary: hugeString, weight: 1 }));
  return fc.tuple(poolName, fc.array(edit, { minLength: 1, maxLength: 3 }), fc.nat(5)).map(([name, edits, extra]) => {
    let obj: unknown = aim.target.valid(name);
    for (const [p, v] of edits) obj = setAt(obj, p.segments, v);
    if (extra === 0 && isObject(obj)) obj = { ...obj, unknownField: { x: 1 } };
    if (extra === 1 && isObject(obj)) obj = setAt(obj, [{ key: 'metadata' }, { key: 'name' }], 'Bad_Name');
    const label = edits.map(([p, v]) => `${p.segments.map((s) => ('key' in s ? s.key : '*')).join('.')}=${json(v).slice(0, 40)}`);
    return { obj, label: label.join(' ') };
  });
}

/** Objects whose type meta, metadata or top level are wrong rather than one field. */
function wrongShell(aim: Aim): fc.Arbitrary<{ obj: unknown; label: string }> {
  return fc.oneof(
    fc.tuple(oddName, fc.boolean()).map(([name, generate]) => ({
      obj: setAt(aim.target.valid('x'), [{ key: 'metadata' }], generate ? { generateName: name } : { name }),
      label: `name ${json(name)}`,
    })),
    fc.tuple(fc.constantFrom('apiVersion', 'kind', 'metadata'), oddValue).map(([key, v]) => ({
      obj: { ...aim.target.valid('g0'), [key]: v },
      label: `${key}=${json(v).slice(0, 40)}`,
    })),
    fc.constantFrom(
      { apiVersion: 'v1', kind: 'Status' },
      { apiVersion: 'apps/v1', kind: 'Pod', metadata: { name: 'x' } },
      { apiVersion: 'nope/v9', kind: 'Pod', metadata: { name: 'x' } },
    ).map((obj) => ({ obj, label: 'foreign kind' })),
    fc.tuple(
      fc.constantFrom('labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields', 'namespace', 'uid',
        'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'),
      oddValue,
    ).map(([key, v]) => ({
      obj: setAt(aim.target.valid('g1'), [{ key: 'metadata' }, { key }], v),
      label: `metadata.${key}=${json(v).slice(0, 40)}`,
    })),
  );
}

function encode(obj: unknown, as: 'json' | 'yaml' | 'protobuf', aim: Aim): { body: string | Buffer; contentType: string } {
  if (as === 'yaml') return { body: yamlOf(obj), contentType: 'application/yaml' };
  if (as === 'protobuf') {
    // A JSON document where protobuf bytes belong, inside a well-formed envelope.
    const t = aim.target.valid('x');
    const raw = Buffer.concat([field(1, json(obj)), field(2, Buffer.from([0xff, 0x01]))]);
    return { body: envelope(String(t.apiVersion), String(t.kind), raw), contentType: 'application/vnd.kubernetes.protobuf' };
  }
  return { body: json(obj), contentType: 'application/json' };
}

/** POST to the collection or PUT to a pool name, with a generated body. */
export function bodyRequest(aim: Aim): fc.Arbitrary<BadRequest> {
  const collection = collectionOf(aim.target);
  const object = fc.oneof({ arbitrary: mutatedObject(aim), weight: 6 }, { arbitrary: wrongShell(aim), weight: 2 });
  const encoded = fc
    .tuple(object, fc.constantFrom<'json' | 'yaml' | 'protobuf'>('json', 'json', 'json', 'yaml', 'protobuf'))
    .map(([o, as]) => ({ ...encode(o.obj, as, aim), label: `${o.label} as ${as}` }));
  const body = fc.oneof({ arbitrary: encoded, weight: 12 }, { arbitrary: rawBody, weight: 2 });
  return fc
    .tuple(body, fc.boolean(), poolName, fc.constantFrom('', 'fieldValidation=Strict', 'fieldValidation=Warn', 'dryRun=All'))
    .map(([b, put, name, query]) => ({
      method: put ? 'PUT' : 'POST',
      path: put ? `${collection}/${name}` : collection,
      query,
      headers: { 'content-type': b.contentType },
      body: b.body,
      label: `${aim.target.kind} ${b.label}`,
    }));
}
