// StrategicMergeMapPatch: applies a decoded strategic merge patch to a decoded object, with merge
// keys and strategies from the kind's schema (k8s.io/apimachinery/pkg/util/strategicpatch).
import type { Schema } from '../../../api/schema/types.js';
import { cloneJSON, type JSONObject } from '../json.js';
import type { SchemaResolver } from '../typed/type-node.js';
import { mergeMap } from './merge-map.js';

export { StrategicMergeError } from './errors.js';

/** The patched object; neither input is changed. Throws StrategicMergeError. */
export function strategicMergePatch(
  original: JSONObject,
  patch: JSONObject,
  schema: { resolver: SchemaResolver; root: Schema },
): JSONObject {
  return mergeMap(cloneJSON(original), cloneJSON(patch), { resolver: schema.resolver, schema: schema.root });
}
