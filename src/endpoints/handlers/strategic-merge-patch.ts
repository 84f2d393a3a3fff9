// Strategic merge patch (handlers/patch.go smpPatcher and strategicPatchObject): built-in kinds
// only, with merge keys and strategies from the kind's schema; custom resources answer 415.
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest, statusError } from '../../machinery/errors/index.js';
import { copyAsJSON } from '../../machinery/json/copy-as-json.js';
import { goValueString } from '../../machinery/patch/go-value.js';
import { isJSONObject, type JSONObject } from '../../machinery/patch/json.js';
import {
  StrategicMergeError,
  strategicMergePatch,
} from '../../machinery/patch/strategic/strategic-merge-patch.js';
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import { unknownError } from '../fieldmanager/field-manager.js';
import type { SchemaSource } from '../fieldmanager/field-managers.js';
import { goJSONTypeName } from '../../machinery/json/go-json-syntax.js';
import { parseGoJSON } from '../request/parse-go-json.js';
import type { PatchInput, PatchMechanism } from './patch-mechanism.js';

const apiVersionOf = (gvk: GroupVersionKind): string =>
  gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;

function decodePatch(input: PatchInput): JSONObject {
  const parsed = parseGoJSON(input.patch.toString('utf8'), input.patch);
  if (!parsed.ok) throw newBadRequest(parsed.error);
  const value = parsed.value;
  if (value === null) return {};
  if (!isJSONObject(value)) {
    throw newBadRequest(
      `json: cannot unmarshal ${goJSONTypeName(value)} into Go value of type map[string]interface {}`,
    );
  }
  return value;
}

/** interpretStrategicMergePatchError: 400 or kube's generic 422 (400 where kube answers 500). */
function interpret(err: StrategicMergeError): Error {
  switch (err.kind) {
    case 'badRequest':
      return newBadRequest(err.message);
    case 'unprocessable':
      return statusError({
        reason: 'Invalid',
        message: 'the server rejected our request due to an error in our request',
        details: {},
      });
    case 'internal':
      // kube falls through to a 500 here; every such error is about the patch's shape, so 400.
      return newBadRequest(err.message);
  }
}

interface PreparedSMP {
  readonly patch: JSONObject;
  readonly kind: GroupVersionKind | undefined;
}

const isDirective = (key: string): boolean => key === '$patch' || key === '$retainKeys';

/**
 * Whether the patch leaves metadata.managedFields alone: no directive replaces, deletes or retains
 * keys of the whole object or of its metadata, and no metadata key (its own directives included,
 * `$setElementOrder/managedFields`) names them.
 */
function keepsManagedFields(patch: unknown): boolean {
  if (!isJSONObject(patch) || Object.keys(patch).some(isDirective)) return false;
  if (!Object.hasOwn(patch, 'metadata')) return true;
  const meta = patch['metadata'];
  return isJSONObject(meta) && !Object.keys(meta).some((k) => isDirective(k) || k.includes('managedFields'));
}

/** kube's isBuiltin test: a kind is patched strategically when the scheme knows it. */
export type BuiltinKindTest = (kind: GroupVersionKind) => boolean;

export function strategicMergePatchMechanism(
  scheme: SchemaSource,
  isBuiltin?: BuiltinKindTest,
): PatchMechanism {
  const builtin =
    isBuiltin ?? ((k: GroupVersionKind) => scheme.kindFor(apiVersionOf(k), k.kind) !== undefined);
  const patched = (prepared: unknown, current: KubeObject): JSONObject => {
    const { patch, kind } = prepared as PreparedSMP;
    const apiVersion = kind === undefined ? (current.apiVersion ?? '') : apiVersionOf(kind);
    const info = scheme.kindFor(apiVersion, kind?.kind ?? current.kind ?? '');
    if (info === undefined)
      throw unknownError(`no schema for ${apiVersion}, Kind=${kind?.kind ?? current.kind ?? ''}`);
    try {
      const root = { $ref: info.definition };
      return strategicMergePatch(current as JSONObject, patch, { resolver: scheme, root });
    } catch (err) {
      if (err instanceof StrategicMergeError) throw interpret(err);
      throw err;
    }
  };
  return {
    supports: builtin,
    prepare: (input: PatchInput): PreparedSMP => ({ patch: decodePatch(input), kind: input.context?.kind }),
    describe: (prepared: unknown): string => goValueString((prepared as PreparedSMP).patch),
    apply: (prepared: unknown, current: KubeObject): string => JSON.stringify(patched(prepared, current)),
    // The merge may share values with the patch and the current object: copied.
    applyObject: (prepared: unknown, current: KubeObject): unknown => copyAsJSON(patched(prepared, current)),
    keepsManagedFields: (prepared: unknown): boolean => keepsManagedFields((prepared as PreparedSMP).patch),
  };
}
