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

/**
 * Whether anything outside metadata and status differs (what bumps metadata.generation); each
 * member there that `obj` holds equal to `old`'s but as a value of its own is replaced by `old`'s.
 * An update mostly leaves the spec as it was: the object written (and kept for the next update)
 * then holds the stored object's spec, already long-lived, rather than a copy just decoded from the
 * body, and the checks after this step find the two the same at once. It runs once the strategy
 * has prepared `obj`, and the steps after it only read (validation, admission, the encoder); `old`
 * is the update's own (read for it, or given out once), so sharing its parts changes nobody's.
 */
export function shareUnchangedContent(obj: KubeObject, old: KubeObject): boolean {
  let changed = false;
  const target = obj as Record<string, unknown>;
  const stored = old as Record<string, unknown>;
  for (const key in target) {
    if (generationExempt.has(key)) continue;
    const value = target[key];
    const was = stored[key];
    if (value === was) continue;
    if (!Object.hasOwn(stored, key) || !jsonEqual(value, was)) changed = true;
    else if (typeof value === 'object' && value !== null) target[key] = was;
  }
  if (changed) return true;
  for (const key in stored)
    if (!generationExempt.has(key) && stored[key] !== undefined && !Object.hasOwn(target, key)) return true;
  return false;
}

/**
 * metav1.ResetObjectMetaForStatus: a subresource that writes one part of an object leaves its
 * labels, annotations, finalizers, owners, generation and deletion as they were.
 */
export function resetObjectMetaForStatus(meta: ObjectMeta, old: ObjectMeta): void {
  const kept = {
    deletionTimestamp: old.deletionTimestamp,
    generation: old.generation,
    labels: old.labels,
    annotations: old.annotations,
    finalizers: old.finalizers,
    ownerReferences: old.ownerReferences,
  };
  for (const [key, value] of Object.entries(kept))
    if (value === undefined) Reflect.deleteProperty(meta, key);
    else Reflect.set(meta, key, value);
}
