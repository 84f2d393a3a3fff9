// What the field manager's walks record, remembered by the shape of the object walked. A create
// records every field the new object sets (kube compares it with the kind's zero object), and an
// apply every field its configuration sets; both depend on the object's keys, its list items and
// which scalars hold Go's zero value, not on the name, namespace, or the values of labels and
// annotations. Controllers create many objects of one shape (a ReplicaSet's Pods differ in those
// only) and apply one configuration again and again, and a walk costs a typed pass over the whole
// object (a create's also the JSON of a FieldsV1 object as big as the object itself). What is
// remembered is a value: a FieldsV1 object (fields-v1.ts never changes one once made; the text of
// one is written once, storage/fields-v1-text.ts) or a field set (never inserted into once built).
import type { KubeObject } from '../../api/meta.js';
import { isJSONObject } from '../../machinery/patch/json.js';

/**
 * The largest key remembered, and the largest body worth keying (its key is about as long): a
 * big ConfigMap or Secret is keyed by its data, which would be kept whole for nothing.
 */
export const maxShapeBytes = 16 * 1024;

/** A string stands for every string of its zero-ness: the empty string, or any other. */
const maskString = (v: unknown): unknown => (typeof v === 'string' && v !== '' ? '-' : v);

function maskValues(map: unknown): unknown {
  if (!isJSONObject(map)) return map;
  const out: Record<string, unknown> = {};
  for (const key in map) out[key] = maskString(map[key]);
  return out;
}

/**
 * The key of the object's shape: its JSON with the name, generated name, namespace and the values
 * of labels and annotations masked (the walks record the keys of a map of strings and whether a
 * string member is empty, nothing of its value). Everything else is as it is: list items (whose
 * keys and values name elements), numbers, and the values defaulting made, so two objects with one
 * key make the same set. Undefined for an object carrying managedFields (a create's request then
 * names managers of its own), without metadata, or decoded from a body over `maxShapeBytes` long
 * (`bodyBytes`, 0 when the caller knows no body).
 */
export function shapeKey(obj: KubeObject, bodyBytes = 0): string | undefined {
  const meta: unknown = obj.metadata;
  if (bodyBytes > maxShapeBytes || !isJSONObject(meta) || Object.hasOwn(meta, 'managedFields'))
    return undefined;
  const masked: Record<string, unknown> = { ...meta };
  for (const key of ['name', 'generateName', 'namespace'] as const) {
    if (Object.hasOwn(masked, key)) masked[key] = maskString(masked[key]);
  }
  if (Object.hasOwn(masked, 'labels')) masked['labels'] = maskValues(masked['labels']);
  if (Object.hasOwn(masked, 'annotations')) masked['annotations'] = maskValues(masked['annotations']);
  return JSON.stringify({ ...obj, metadata: masked });
}

/** Shapes remembered per field manager and walk: a controller's few templates, not every object. */
const maxShapes = 32;

/** What a walk recorded for each shape, the oldest forgotten first. */
export class ShapeCache<V> {
  readonly #byShape = new Map<string, V>();
  // Objects of one shape come in runs: comparing with the last key costs less than hashing it.
  #lastKey: string | undefined;
  #lastValue: V | undefined;

  get(key: string): V | undefined {
    if (key === this.#lastKey) return this.#lastValue;
    const value = this.#byShape.get(key);
    if (value !== undefined) {
      this.#lastKey = key;
      this.#lastValue = value;
    }
    return value;
  }

  set(key: string, value: V): void {
    if (key.length > maxShapeBytes) return;
    if (this.#byShape.size >= maxShapes) {
      const oldest = this.#byShape.keys().next();
      if (oldest.done !== true) this.#byShape.delete(oldest.value);
    }
    this.#byShape.set(key, value);
    this.#lastKey = key;
    this.#lastValue = value;
  }
}
