// The managed fields of a create, remembered by the shape of the object created. A create records
// every field the new object sets (kube compares it with the kind's zero object), and what it sets
// depends on the object's keys, its list items and which scalars hold Go's zero value, not on the
// name, namespace, or the values of labels and annotations. Controllers create many objects of one
// shape (a ReplicaSet's Pods differ in those only), and a create's field set costs a typed walk of
// the object and the JSON of a FieldsV1 object as big as the object itself. A remembered FieldsV1
// object is shared by every object created with its shape: FieldsV1 objects are values (fields-v1.ts
// never changes one once made), and the text of one is written once (storage/fields-v1-text.ts).
import type { KubeObject } from '../../api/meta.js';
import { isJSONObject, type JSONObject } from '../../machinery/patch/json.js';

/** A string stands for every string of its zero-ness: the empty string, or any other. */
const maskString = (v: unknown): unknown => (typeof v === 'string' && v !== '' ? '-' : v);

function maskValues(map: unknown): unknown {
  if (!isJSONObject(map)) return map;
  const out: Record<string, unknown> = {};
  for (const key in map) out[key] = maskString(map[key]);
  return out;
}

/**
 * The key of the object's shape for a create's field set: its JSON with the name, generated name,
 * namespace and the values of labels and annotations masked (the create walk records the keys of
 * a map of strings and whether a string member is empty, nothing of its value). Everything else is
 * as it is: list items (whose keys and values name elements), numbers, and the values defaulting
 * made, so two objects with one key made the same set. Undefined for an object carrying
 * managedFields (the request's managers then take part) or without metadata.
 */
export function createShapeKey(obj: KubeObject): string | undefined {
  const meta: unknown = obj.metadata;
  if (!isJSONObject(meta) || Object.hasOwn(meta, 'managedFields')) return undefined;
  const masked: Record<string, unknown> = { ...meta };
  for (const key of ['name', 'generateName', 'namespace'] as const) {
    if (Object.hasOwn(masked, key)) masked[key] = maskString(masked[key]);
  }
  if (Object.hasOwn(masked, 'labels')) masked['labels'] = maskValues(masked['labels']);
  if (Object.hasOwn(masked, 'annotations')) masked['annotations'] = maskValues(masked['annotations']);
  return JSON.stringify({ ...obj, metadata: masked });
}

/** Shapes remembered per field manager: a controller's few templates, not every object ever made. */
const maxShapes = 32;

/**
 * The largest key remembered, and the largest body worth keying (its key is about as long): a
 * big ConfigMap or Secret is keyed by its data, which would be kept whole for nothing.
 */
export const maxShapeBytes = 16 * 1024;

/** The FieldsV1 object a create of each shape recorded, the oldest forgotten first. */
export class CreateFields {
  readonly #byShape = new Map<string, JSONObject>();

  get(key: string): JSONObject | undefined {
    return this.#byShape.get(key);
  }

  set(key: string, fieldsV1: JSONObject): void {
    if (key.length > maxShapeBytes) return;
    if (this.#byShape.size >= maxShapes) {
      const oldest = this.#byShape.keys().next();
      if (oldest.done !== true) this.#byShape.delete(oldest.value);
    }
    this.#byShape.set(key, fieldsV1);
  }
}
