// PATCH requests of every patch type with generated documents: JSON patches with odd operations,
// merge and strategic merge patches with odd values and directives, apply configurations with bad
// shapes.
import fc from 'fast-check';
import { mutatedObject, poolName, type Aim } from './bodies.js';
import { collectionOf } from './kinds.js';
import { pointerOf } from './schema-paths.js';
import type { BadRequest } from './server.js';
import { oddValue, rawBody } from './values.js';
import { yamlOf } from './yaml-of.js';

// Generated values are JSON values: only undefined itself has no JSON text.
const json = (v: unknown): string => (v === undefined ? 'undefined' : JSON.stringify(v));

function jsonPatch(aim: Aim): fc.Arbitrary<string> {
  const pointer = fc.oneof(
    fc.constantFrom(...aim.paths).map((p) => pointerOf(p.segments)),
    fc.constantFrom('', '/', '/metadata/name', '/spec/-', '/spec/containers/-', '/spec/containers/99', '/a~2b', '//', 'no-slash', '/metadata/labels/a~1b'),
  );
  const op = fc.record(
    {
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus', ''),
      path: pointer,
      from: pointer,
      value: oddValue,
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    fc.array(op, { maxLength: 4 }).map(json),
    oddValue.map(json),
    fc.constant(json([{ op: 'add', path: '/metadata/labels', value: null }, { op: 'add', path: '/metadata/labels/x', value: 'y' }])),
  );
}

function mergeLike(aim: Aim, strategic: boolean): fc.Arbitrary<string> {
  const directive = fc.constantFrom(
    { $patch: 'delete' },
    { $patch: 'replace' },
    { $patch: 'bogus' },
    { spec: { $patch: 'delete' } },
    { spec: { containers: [{ $patch: 'delete' }] } },
    { spec: { containers: [{ name: 'c', $patch: 'replace' }], '$setElementOrder/containers': [{ name: 'zz' }, 7] } },
    { spec: { '$setElementOrder/containers': 'x' } },
    { metadata: { '$deleteFromPrimitiveList/finalizers': 'x' } },
    { metadata: { '$deleteFromPrimitiveList/finalizers': ['x', null] } },
    { spec: { $retainKeys: ['x'] } },
    { spec: { $retainKeys: 5 } },
    { spec: { ports: [{ port: 'x' }, null] } },
    { spec: { ports: null, containers: 'x' } },
    { data: null, metadata: null },
  );
  const doc = fc.oneof(
    { arbitrary: mutatedObject(aim).map((o) => o.obj), weight: 5 },
    { arbitrary: oddValue, weight: 1 },
    { arbitrary: directive, weight: strategic ? 3 : 1 },
  );
  return doc.map(json);
}

function applyConfig(aim: Aim): fc.Arbitrary<{ body: string; contentType: string }> {
  return fc
    .tuple(mutatedObject(aim), fc.boolean())
    .map(([o, yaml]) =>
      yaml
        ? { body: yamlOf(o.obj), contentType: 'application/apply-patch+yaml' }
        : { body: json(o.obj), contentType: 'application/apply-patch+json' },
    );
}

const applyQuery = fc.constantFrom(
  'fieldManager=bad-input',
  'fieldManager=bad-input&force=true',
  'fieldManager=bad-input&force=maybe',
  '',
  `fieldManager=${'m'.repeat(200)}`,
  'fieldManager=bad-input&fieldValidation=Strict',
  'fieldManager=bad-input&dryRun=All',
);

/** PATCH to a pool name or the fixture, of any patch type. */
export function patchRequest(aim: Aim): fc.Arbitrary<BadRequest> {
  const collection = collectionOf(aim.target);
  const typed = fc.oneof(
    jsonPatch(aim).map((body) => ({ body, contentType: 'application/json-patch+json', query: '' })),
    mergeLike(aim, false).map((body) => ({ body, contentType: 'application/merge-patch+json', query: '' })),
    mergeLike(aim, true).map((body) => ({ body, contentType: 'application/strategic-merge-patch+json', query: '' })),
    fc.tuple(applyConfig(aim), applyQuery).map(([a, query]) => ({ ...a, query })),
    fc
      .tuple(rawBody, fc.constantFrom('application/merge-patch+json', 'application/apply-patch+yaml', 'application/json-patch+json'))
      .map(([r, contentType]) => ({ body: r.body, contentType, query: contentType.includes('apply') ? 'fieldManager=m' : '' })),
  );
  return fc
    .tuple(typed, fc.oneof({ arbitrary: poolName, weight: 1 }, { arbitrary: fc.constant('fx'), weight: 3 }), fc.constantFrom('', 'status'), fc.constantFrom('', 'fieldValidation=Strict', 'dryRun=All'))
    .map(([t, name, sub, extra]) => ({
      method: 'PATCH',
      path: `${collection}/${name}${sub === '' ? '' : `/${sub}`}`,
      query: [t.query, extra].filter((q) => q !== '').join('&'),
      headers: { 'content-type': t.contentType },
      body: t.body,
      label: `${aim.target.kind} ${t.contentType} ${typeof t.body === 'string' ? t.body.slice(0, 120) : '<bytes>'}`,
    }));
}
