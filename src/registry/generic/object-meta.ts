// ObjectMeta helpers the generic Store shares across verbs (metav1.FillObjectMetaSystemFields,
// metav1.Now with second precision, deep copies).
import { randomUUID } from 'node:crypto';
import type { KubeObject, ObjectMeta } from '../../api/meta.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';
import { jsonEqual } from '../../machinery/patch/json.js';
import { nowRFC3339, rfc3339 } from '../../machinery/time/rfc3339.js';

export { jsonEqual };

export { rfc3339 };

/** metav1.Now(), serialized. */
export const nowTimestamp = nowRFC3339;

/** The object's metadata, created when missing. */
export function metaOf(obj: KubeObject): ObjectMeta {
  obj.metadata ??= {};
  return obj.metadata;
}

/** Sets the fields only the server assigns on create: creationTimestamp (at `nowMs`) and uid. */
export function fillObjectMetaSystemFields(meta: ObjectMeta, nowMs?: number): void {
  meta.creationTimestamp = nowTimestamp(nowMs);
  meta.uid = randomUUID();
}

/** A deep copy of a JSON-shaped object (kube's DeepCopyObject). */
export function deepCopy<T>(obj: T): T {
  return deepCopyJSON(obj);
}

/** A timestamp `seconds` after `base` (both RFC 3339). */
export function addSeconds(base: string, seconds: number): string {
  return rfc3339(new Date(Date.parse(base) + seconds * 1000));
}

/** Whether the object carries a deletionTimestamp. */
export function isBeingDeleted(obj: KubeObject): boolean {
  return (obj.metadata?.deletionTimestamp ?? '') !== '';
}

/** Keys whose difference does not make a new generation: metadata and status. */
const generationExempt = new Set(['metadata', 'status', 'apiVersion', 'kind']);

/** Whether anything outside metadata and status differs (what bumps metadata.generation). */
export function specChanged(obj: KubeObject, old: KubeObject): boolean {
  const keys = new Set([...Object.keys(obj), ...Object.keys(old)]);
  for (const key of keys) {
    if (generationExempt.has(key)) continue;
    if (!jsonEqual(obj[key], old[key])) return true;
  }
  return false;
}
