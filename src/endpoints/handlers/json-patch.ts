// RFC 6902 JSON patch (kube's jsonPatcher with evanphx/json-patch): the operations are checked as
// kube decodes them, applied with fast-json-patch, and any failure to apply is kube's generic 422.
import { createRequire } from 'node:module';
import type { applyPatch as ApplyPatch, Operation } from 'fast-json-patch';
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest, newRequestEntityTooLarge, statusError } from '../../machinery/errors/index.js';
import { copyAsJSON } from '../../machinery/json/copy-as-json.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';
import { goJSONTypeName } from '../request/go-json.js';
import { inGoOrder } from '../responsewriters/go-order.js';
import { parseGoJSON } from '../request/parse-go-json.js';
import { escapedOperations, namesInheritedKey, renamedKeys } from './json-patch-keys.js';
import type { PatchInput, PatchMechanism } from './patch-mechanism.js';

const maxJSONPatchOperations = 10000;

// fast-json-patch is CommonJS, required on the first JSON patch rather than at start (~5 ms).
const requireCommonJS = createRequire(import.meta.url);
let loaded: typeof ApplyPatch | undefined;
const jsonPatchLibrary = (): typeof ApplyPatch =>
  (loaded ??= (requireCommonJS('fast-json-patch') as { applyPatch: typeof ApplyPatch }).applyPatch);

function strictCheck(value: unknown): void {
  const fail = (detail: string): never => {
    throw newBadRequest(`error decoding patch: json: cannot unmarshal ${detail}`);
  };
  if (value === null) return;
  if (!Array.isArray(value)) fail(`${goJSONTypeName(value)} into Go value of type []handlers.jsonPatchOp`);
  for (const op of value as unknown[]) {
    if (op === null) continue;
    if (typeof op !== 'object' || Array.isArray(op))
      fail(`${goJSONTypeName(op)} into Go value of type handlers.jsonPatchOp`);
    for (const field of ['op', 'path', 'from']) {
      const v = (op as Record<string, unknown>)[field];
      if (v !== undefined && v !== null && typeof v !== 'string') {
        fail(`${goJSONTypeName(v)} into Go struct field jsonPatchOp.${field} of type string`);
      }
    }
  }
}

// jsonpatch.DecodePatch: an array of objects.
function decodePatch(value: unknown): Operation[] {
  if (value === null) return [];
  if (!Array.isArray(value)) {
    throw newBadRequest(
      `json: cannot unmarshal ${goJSONTypeName(value)} into Go value of type jsonpatch.Patch`,
    );
  }
  for (const op of value as unknown[]) {
    if (op !== null && (typeof op !== 'object' || Array.isArray(op))) {
      throw newBadRequest(
        `json: cannot unmarshal ${goJSONTypeName(op)} into Go value of type jsonpatch.Operation`,
      );
    }
  }
  return value as Operation[];
}

function unprocessable(): Error {
  return statusError({
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
    details: {},
  });
}

/** RFC 6902 4.4: a value cannot move into one of its own children (the library would make a cycle). */
function movesIntoItself(ops: readonly Operation[]): boolean {
  return ops.some((op) => {
    const o = op as { op?: unknown; from?: unknown; path?: unknown } | null;
    return (
      o?.op === 'move' &&
      typeof o.from === 'string' &&
      typeof o.path === 'string' &&
      o.path.startsWith(`${o.from}/`)
    );
  });
}

// The document after the operations; it may share values with them (an added value). As kube's
// jsonPatcher, the operations apply to the current object's JSON encoding: a built-in object's zero
// members Go writes (a template's "creationTimestamp":null) are there to test or remove.
// A patch naming a key like `constructor` or `__proto__` applies to a document with such keys escaped.
function patched(prepared: unknown, current: KubeObject): unknown {
  const applyPatch = jsonPatchLibrary();
  const ops = prepared as Operation[];
  if (movesIntoItself(ops)) throw unprocessable();
  try {
    if (!namesInheritedKey(ops))
      return applyPatch(deepCopyJSON(inGoOrder(current)), ops, true, true).newDocument;
    const doc = renamedKeys(inGoOrder(current), true);
    return renamedKeys(applyPatch(doc, escapedOperations(ops) as Operation[], true, true).newDocument, false);
  } catch {
    throw unprocessable();
  }
}

export const jsonPatchMechanism: PatchMechanism = {
  prepare(input: PatchInput): Operation[] {
    const parsed = parseGoJSON(input.patch.toString('utf8'), input.patch);
    const strict = input.fieldValidation !== 'Ignore';
    if (!parsed.ok) throw newBadRequest(strict ? `error decoding patch: ${parsed.error}` : parsed.error);
    const value = parsed.value;
    if (strict) strictCheck(value);
    const ops = decodePatch(value);
    if (ops.length > maxJSONPatchOperations) {
      throw newRequestEntityTooLarge(
        `The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${ops.length}`,
      );
    }
    return ops;
  },
  apply(prepared: unknown, current: KubeObject): string {
    return JSON.stringify(patched(prepared, current));
  },
  applyObject: (prepared: unknown, current: KubeObject): unknown => copyAsJSON(patched(prepared, current)),
};
