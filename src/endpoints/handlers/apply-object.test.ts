// Each mechanism's applyObject must be JSON.parse of its apply text, fresh: the handler decodes it
// in place of that text, mutating it, and applies the same prepared patch again on a conflict.
// Server-side apply's managedFields are the exception: the field manager built them for the try,
// and they stay as built (their FieldsV1 known canonical, possibly the live object's, only read).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KubeObject, ManagedFieldsEntry } from '../../api/meta.js';
import { isKnownCanonicalFieldsV1 } from '../../machinery/patch/fieldpath/fields-v1.js';
import { FieldManagers } from '../fieldmanager/field-managers.js';
import { applyPatchMechanism } from './apply-patch.js';
import { jsonPatchMechanism } from './json-patch.js';
import { mergePatchMechanism } from './merge-patch.js';
import type { PatchMechanism } from './patch-mechanism.js';
import { strategicMergePatchMechanism } from './strategic-merge-patch.js';

const kind = { group: '', version: 'v1', kind: 'ConfigMap' };
const context = { kind, subresource: '', fieldManager: 'test', force: false, addWarning: () => undefined };

/** Checks applyObject against apply; returns the result's managedFields, which apply keeps as built. */
function check(mechanism: PatchMechanism, patch: string, current: KubeObject): readonly ManagedFieldsEntry[] {
  const prepared = mechanism.prepare({ patch: Buffer.from(patch), fieldValidation: 'Strict', context });
  if (mechanism.applyObject === undefined) throw new Error('no applyObject');
  const before = JSON.stringify({ prepared, current });
  const object = mechanism.applyObject(prepared, current, new WeakSet()) as KubeObject;
  // The same members in the same order, with JSON's numbers (managed fields' times may tick).
  const untimed = (text: string): string => text.replace(/"time":"[^"]*"/g, '"time":""');
  assert.equal(untimed(JSON.stringify(object)), untimed(mechanism.apply(prepared, current)), patch);
  const entries = object.metadata?.managedFields;
  // Scribbling over every level of the result (but apply's managedFields) leaves the inputs as they were.
  const scribble = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || v === entries) return;
    for (const key of Object.keys(v)) {
      scribble((v as Record<string, unknown>)[key]);
      (v as Record<string, unknown>)[key] = 'scribbled';
    }
  };
  scribble(object);
  assert.equal(JSON.stringify({ prepared, current }), before, patch);
  return entries ?? [];
}

const current = (): KubeObject =>
  JSON.parse(
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"a":"1","b":"2"},' +
      '"finalizers":["x"]},"data":{"__proto__":"kept","k":"v"},"binaryData":{}}',
  ) as KubeObject;

describe('applyObject is JSON.parse of apply', () => {
  const merges = [
    '{"metadata":{"labels":{"c":"3","a":null}}}',
    '{"data":{"x":1e400,"y":-0,"z":[1,null,{"n":null}]},"extra":{"deep":[{"a":null}]}}',
    '{"data":null,"metadata":{"finalizers":["y",null]}}',
    '{"data":{"__proto__":{"evil":true}},"__proto__":{"polluted":1}}',
    '{"1":"one","0":"zero","metadata":{"labels":{"2":"two"}}}',
    '{}',
  ];
  for (const patch of merges) {
    it(`merge patch ${patch}`, () => {
      check(mergePatchMechanism, patch, current());
    });
  }

  const jsonPatches = [
    '[{"op":"add","path":"/metadata/labels/c","value":{"nested":[1,{"a":1e400}]}}]',
    '[{"op":"copy","from":"/metadata/labels","path":"/data/copied"}]',
    '[{"op":"move","from":"/metadata/finalizers","path":"/moved"},{"op":"remove","path":"/data/k"}]',
    '[{"op":"replace","path":"/data","value":{"a":"b","n":-0}}]',
    '[]',
  ];
  for (const patch of jsonPatches) {
    it(`JSON patch ${patch}`, () => {
      check(jsonPatchMechanism, patch, current());
    });
  }

  const smp = strategicMergePatchMechanism(builtinScheme());
  const strategic = [
    '{"metadata":{"labels":{"c":"3","a":null},"finalizers":["y"]}}',
    '{"data":{"x":1e400,"k":null},"unknown":{"a":[1,2]}}',
    '{"metadata":{"$setElementOrder/finalizers":["x"]}}',
  ];
  for (const patch of strategic) {
    it(`strategic merge patch ${patch}`, () => {
      check(smp, patch, current());
    });
  }

  const apply = applyPatchMechanism(new FieldManagers(builtinScheme()));
  const applies = [
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"c":"3"}},"data":{"k2":"w"}}',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","finalizers":["y"]},"data":{"n":"1"}}',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  y: "2"\n',
  ];
  for (const patch of applies) {
    it(`server-side apply ${patch}`, () => {
      check(apply, patch, current());
    });
  }

  it('server-side apply keeps the entries the field manager built, their FieldsV1 known canonical', () => {
    const live = current();
    (live.metadata ??= {}).managedFields = [
      {
        manager: 'other',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-11-29T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } },
      },
    ];
    const kept = check(apply, applies[0] ?? '', live);
    assert.deepEqual(
      kept.map((e) => `${e.manager ?? ''} ${e.operation ?? ''}`),
      ['test Apply', 'other Update'],
    );
    for (const e of kept) assert.equal(isKnownCanonicalFieldsV1(e.fieldsV1), true, e.manager);
  });

  it('holds on generated merge patches', () => {
    let seed = 11;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return (seed >>> 16) % n;
    };
    const leaves = [null, 1, -0, Infinity, NaN, 'x', true, [], [null, 1], {}];
    const value = (depth: number): unknown => {
      if (depth === 0 || rnd(3) === 0) return leaves[rnd(leaves.length)];
      const out: Record<string, unknown> = {};
      for (let i = rnd(4); i > 0; i--)
        out[['a', 'b', 'data', 'metadata', '7'][rnd(5)] ?? 'a'] = value(depth - 1);
      return rnd(5) === 0 ? [out] : out;
    };
    for (let i = 0; i < 500; i++) {
      const doc = current();
      const extra = value(3);
      if (typeof extra === 'object' && extra !== null && !Array.isArray(extra)) Object.assign(doc, extra);
      const patch = value(4);
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) continue;
      check(mergePatchMechanism, JSON.stringify(patch), doc);
    }
  });
});
