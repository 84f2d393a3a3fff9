// Both JSON patch paths (a PATCH request's and a mutating webhook's answer) against what
// gopkg.in/evanphx/json-patch.v4 v4.12.0, which kube 1.33 vendors for both, does by its patch.go.
// Each case names the function whose rule it encodes. A request's failure is kube's generic 422
// (handlers/patch.go applyJSPatch hides the message); a webhook's is an Internal error quoting it
// (mutating/dispatcher.go), so the message is checked there.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { applyWebhookPatchWithText, decodeJSONPatch } from '../../admission/plugin/webhook/json-patch.js';
import { jsonPatchMechanism } from './json-patch.js';

const docText =
  '{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"w"},' +
  '"spec":{"b":1,"a":"x","n":null,"list":[1,2,3],"o":{"z":1,"y":2}}}';

// The root is always a Go map (sorted); an object an operation walks into becomes one too.
const head = '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":';
const untouched = `${head}{"b":1,"a":"x","n":null,"list":[1,2,3],"o":{"z":1,"y":2}}}`;
const sorted = (members: string): string => `${head}{${members}}}`;
const spec = (list: string, extra = ''): string =>
  sorted(`"a":"x","b":1${extra},"list":${list},"n":null,"o":{"z":1,"y":2}`);

interface Case {
  readonly name: string;
  /** The patch's text, as sent (so 1.0 stays 1.0). */
  readonly patch: string;
  readonly doc?: string;
  /** The result's text, or the library's error message. */
  readonly ok?: string;
  readonly error?: string;
}

const op = (o: Record<string, unknown>): string => JSON.stringify(o);
const one = (o: Record<string, unknown>): string => `[${op(o)}]`;

const cases: Case[] = [
  // findObject: a parent that is missing fails the add.
  {
    name: 'add under a missing parent',
    patch: one({ op: 'add', path: '/spec/missing/x', value: 1 }),
    error: 'add operation does not apply: doc is missing path: "/spec/missing/x": missing value',
  },
  // partialDoc.add: a map entry is set, replacing one there.
  {
    name: 'add over an existing key',
    patch: one({ op: 'add', path: '/spec/a', value: 'y' }),
    ok: sorted('"a":"y","b":1,"list":[1,2,3],"n":null,"o":{"z":1,"y":2}'),
  },
  // partialArray.add: "-" appends; an index up to the length inserts; past it fails.
  { name: 'add at -', patch: one({ op: 'add', path: '/spec/list/-', value: 4 }), ok: spec('[1,2,3,4]') },
  {
    name: 'add at the length',
    patch: one({ op: 'add', path: '/spec/list/3', value: 4 }),
    ok: spec('[1,2,3,4]'),
  },
  {
    name: 'add past the length',
    patch: one({ op: 'add', path: '/spec/list/4', value: 4 }),
    error:
      "error in add for path: '/spec/list/4': Unable to access invalid index: 4: invalid index referenced",
  },
  // partialArray.add with SupportNegativeIndices: -1 is the new last place, -(len+1) the first.
  { name: 'add at -1', patch: one({ op: 'add', path: '/spec/list/-1', value: 9 }), ok: spec('[1,2,3,9]') },
  { name: 'add at -4', patch: one({ op: 'add', path: '/spec/list/-4', value: 9 }), ok: spec('[9,1,2,3]') },
  {
    name: 'add at -5',
    patch: one({ op: 'add', path: '/spec/list/-5', value: 9 }),
    error:
      "error in add for path: '/spec/list/-5': Unable to access invalid index: -5: invalid index referenced",
  },
  // strconv.Atoi reads the index: leading zeros count; a word is no index.
  { name: 'add at 01', patch: one({ op: 'add', path: '/spec/list/01', value: 9 }), ok: spec('[1,9,2,3]') },
  {
    name: 'add at a word',
    patch: one({ op: 'add', path: '/spec/list/x', value: 9 }),
    error: `error in add for path: '/spec/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
  },
  // Operation.value: no value member adds a nil node, written null.
  {
    name: 'add without a value',
    patch: one({ op: 'add', path: '/spec/c' }),
    ok: spec('[1,2,3]', ',"c":null'),
  },
  // findObject: a path with fewer than two '/'-separated parts names nothing, "" included.
  {
    name: 'add to the whole document',
    patch: one({ op: 'add', path: '', value: {} }),
    error: 'add operation does not apply: doc is missing path: "": missing value',
  },
  {
    name: 'add to a path without a leading slash',
    patch: one({ op: 'add', path: 'spec', value: 1 }),
    error: 'add operation does not apply: doc is missing path: "spec": missing value',
  },
  // findObject: "/" is the root's "" key.
  { name: 'add at /', patch: one({ op: 'add', path: '/', value: 1 }), ok: `{"":1,${untouched.slice(1)}` },
  // decodePatchKey: ~1 is '/', ~0 is '~'.
  {
    name: 'add with escapes',
    patch: `[${op({ op: 'add', path: '/spec/a~1b', value: 1 })},${op({ op: 'add', path: '/spec/c~0d', value: 2 })}]`,
    ok: sorted('"a":"x","a/b":1,"b":1,"c~d":2,"list":[1,2,3],"n":null,"o":{"z":1,"y":2}'),
  },
  // partialDoc.remove: a missing key fails; a null one is there to remove.
  {
    name: 'remove a missing key',
    patch: one({ op: 'remove', path: '/spec/missing' }),
    error:
      "error in remove for path: '/spec/missing': Unable to remove nonexistent key: missing: missing value",
  },
  {
    name: 'remove a null member',
    patch: one({ op: 'remove', path: '/spec/n' }),
    ok: sorted('"a":"x","b":1,"list":[1,2,3],"o":{"z":1,"y":2}'),
  },
  // partialArray.remove: past the end fails; negative counts from the end.
  {
    name: 'remove past the end',
    patch: one({ op: 'remove', path: '/spec/list/3' }),
    error:
      "error in remove for path: '/spec/list/3': Unable to access invalid index: 3: invalid index referenced",
  },
  { name: 'remove at -1', patch: one({ op: 'remove', path: '/spec/list/-1' }), ok: spec('[1,2]') },
  {
    name: 'remove the whole document',
    patch: one({ op: 'remove', path: '' }),
    error: 'remove operation does not apply: doc is missing path: "": missing value',
  },
  // Patch.replace: partialDoc.get never fails, so a missing key is added.
  {
    name: 'replace a missing key',
    patch: one({ op: 'replace', path: '/spec/c', value: 1 }),
    ok: spec('[1,2,3]', ',"c":1'),
  },
  {
    name: 'replace under a missing parent',
    patch: one({ op: 'replace', path: '/spec/missing/x', value: 1 }),
    error: 'replace operation does not apply: doc is missing path: /spec/missing/x: missing value',
  },
  // Patch.replace: partialArray.get refuses an index past the end, and "-".
  {
    name: 'replace past the end',
    patch: one({ op: 'replace', path: '/spec/list/3', value: 1 }),
    error: 'replace operation does not apply: doc is missing key: /spec/list/3: missing value',
  },
  {
    name: 'replace at -',
    patch: one({ op: 'replace', path: '/spec/list/-', value: 1 }),
    error: 'replace operation does not apply: doc is missing key: /spec/list/-: missing value',
  },
  {
    name: 'replace at -1',
    patch: one({ op: 'replace', path: '/spec/list/-1', value: 0 }),
    ok: spec('[1,2,0]'),
  },
  // Patch.replace of "": an object or array replaces the document; v4.12 ignores anything else.
  {
    name: 'replace the whole document',
    patch: one({ op: 'replace', path: '', value: { b: 1, a: 2 } }),
    ok: '{"a":2,"b":1}',
  },
  {
    name: 'replace the whole document by a scalar',
    patch: one({ op: 'replace', path: '', value: 1 }),
    ok: untouched,
  },
  // Patch.move: from goes through findObject, so "a" names nothing, and "x/kind" names /kind.
  {
    name: 'move from a path without a leading slash',
    patch: one({ op: 'move', from: 'a', path: '/spec/c' }),
    error: 'move operation does not apply: doc is missing from path: a: missing value',
  },
  {
    name: 'copy from a path whose first token is not empty',
    patch: one({ op: 'copy', from: 'x/kind', path: '/spec/k' }),
    ok: spec('[1,2,3]', ',"k":"Widget"'),
  },
  // Patch.move: the from member is removed first, so a missing one fails there (named by its key).
  {
    name: 'move a missing key',
    patch: one({ op: 'move', from: '/spec/missing', path: '/spec/c' }),
    error: "error in move for path: 'missing': Unable to remove nonexistent key: missing: missing value",
  },
  // Patch.move: into its own child, the destination's parent is gone once the value is removed.
  {
    name: 'move into its own child',
    patch: one({ op: 'move', from: '/spec/o', path: '/spec/o/p' }),
    error: 'move operation does not apply: doc is missing destination path: /spec/o/p: missing value',
  },
  {
    name: 'move onto itself',
    patch: one({ op: 'move', from: '/spec/a', path: '/spec/a' }),
    ok: spec('[1,2,3]'),
  },
  {
    name: 'move within a list',
    patch: one({ op: 'move', from: '/spec/list/0', path: '/spec/list/-' }),
    ok: spec('[2,3,1]'),
  },
  // Patch.copy: partialDoc.get of a missing key is nil, and a nil is copied (written null).
  {
    name: 'copy a missing key',
    patch: one({ op: 'copy', from: '/spec/missing', path: '/spec/c' }),
    ok: spec('[1,2,3]', ',"c":null'),
  },
  {
    name: 'copy from past the end',
    patch: one({ op: 'copy', from: '/spec/list/5', path: '/spec/c' }),
    error:
      "error in copy for from: '/spec/list/5': Unable to access invalid index: 5: invalid index referenced",
  },
  // Patch.test: a missing member and a null one are both nil, equal to a null value only.
  {
    name: 'test a missing key against null',
    patch: one({ op: 'test', path: '/spec/missing', value: null }),
    ok: spec('[1,2,3]'),
  },
  {
    name: 'test a null member against null',
    patch: one({ op: 'test', path: '/spec/n', value: null }),
    ok: spec('[1,2,3]'),
  },
  {
    name: 'test a missing key against a value',
    patch: one({ op: 'test', path: '/spec/missing', value: 1 }),
    error: 'testing value /spec/missing failed: test failed',
  },
  {
    name: 'test under a missing parent',
    patch: one({ op: 'test', path: '/spec/missing/x', value: 1 }),
    error: 'test operation does not apply: is missing path: /spec/missing/x: missing value',
  },
  // lazyNode.equal: scalars compare as compact text, so 1.0 is not 1, nor "\u0078" "x".
  { name: 'test 1 against 1', patch: '[{"op":"test","path":"/spec/b","value":1}]', ok: spec('[1,2,3]') },
  {
    name: 'test 1 against 1.0',
    patch: '[{"op":"test","path":"/spec/b","value":1.0}]',
    error: 'testing value /spec/b failed: test failed',
  },
  {
    name: 'test "x" against an escaped x',
    patch: '[{"op":"test","path":"/spec/a","value":"\\u0078"}]',
    error: 'testing value /spec/a failed: test failed',
  },
  // lazyNode.equal: objects by members in any order; comparing decodes the member (now sorted).
  {
    name: 'test an object in another order',
    patch: '[{"op":"test","path":"/spec/o","value":{"y":2,"z":1}}]',
    ok: sorted('"a":"x","b":1,"list":[1,2,3],"n":null,"o":{"y":2,"z":1}'),
  },
  { name: 'test a list', patch: '[{"op":"test","path":"/spec/list","value":[1,2,3]}]', ok: spec('[1,2,3]') },
  // Patch.test of "": the whole document.
  {
    name: 'test the whole document',
    patch: `[{"op":"test","path":"","value":${docText}}]`,
    ok: `${head}{"a":"x","b":1,"list":[1,2,3],"n":null,"o":{"y":2,"z":1}}}`,
  },
  // ApplyIndent: an unknown kind fails; Operation.Path: a missing path fails.
  {
    name: 'an unknown operation',
    patch: one({ op: 'frob', path: '/spec/a' }),
    error: 'Unexpected kind: frob',
  },
  {
    name: 'add without a path',
    patch: one({ op: 'add', value: 1 }),
    error: 'add operation failed to decode path: missing value',
  },
  // Patch.copy with AccumulatedCopySizeLimit (kube: JSONPatchMaxCopyBytes, 3 MiB): 4 copies of 1 MB.
  {
    name: 'copies past the size limit',
    doc: `{"spec":{"big":"${'x'.repeat(1_000_000)}"}}`,
    patch: `[${[1, 2, 3, 4].map((i) => op({ op: 'copy', from: '/spec/big', path: `/spec/c${i}` })).join(',')}]`,
    error:
      'Unable to complete the copy, the accumulated size increase of copy is 4000008, exceeding the limit 3145728',
  },
];

function viaRequest(c: Case): string {
  const prepared = jsonPatchMechanism.prepare({ patch: Buffer.from(c.patch), fieldValidation: 'Strict' });
  return jsonPatchMechanism.apply(prepared, JSON.parse(c.doc ?? docText) as KubeObject);
}

function viaWebhook(c: Case): string {
  const doc = JSON.parse(c.doc ?? docText) as unknown;
  return JSON.stringify(applyWebhookPatchWithText(doc, decodeJSONPatch(Buffer.from(c.patch))).value);
}

describe('JSON patch as evanphx/json-patch v4 applies it, for requests and webhooks alike', () => {
  for (const c of cases) {
    it(c.name, () => {
      if (c.error === undefined) {
        assert.equal(viaRequest(c), c.ok, 'request');
        assert.equal(viaWebhook(c), c.ok, 'webhook');
        return;
      }
      assert.throws(() => viaRequest(c), {
        message: 'the server rejected our request due to an error in our request',
      });
      assert.throws(
        () => viaWebhook(c),
        (err: Error) => {
          assert.equal(err.message, c.error, 'webhook');
          return true;
        },
      );
    });
  }
});

describe("a JSON patch's number text", () => {
  it('is given as the patch wrote it only when some value has a fraction or an exponent', () => {
    const doc = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } as KubeObject;
    const text = (patch: string): string | undefined =>
      jsonPatchMechanism.numberText?.(
        jsonPatchMechanism.prepare({ patch: Buffer.from(patch), fieldValidation: 'Strict' }),
        doc,
      );
    assert.equal(
      text(
        '[{"op":"add","path":"/metadata/generation","value":1.0},{"op":"add","path":"/data","value":{"k":"2.5"}}]',
      ),
      '{"apiVersion":"v1","data":{"k":"2.5"},"kind":"ConfigMap","metadata":{"creationTimestamp":null,"generation":1.0,"name":"c"}}',
    );
    assert.equal(text('[{"op":"add","path":"/data","value":{"k":"2.5"}}]'), undefined);
  });
});
