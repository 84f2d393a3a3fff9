// What a walk over an object found, remembered by the object's shape: its JSON with the name,
// generated name, namespace, uid, resourceVersion and the values of labels and annotations masked
// to whether they are empty. Several walks depend on nothing else: a create's and an apply's field
// set (the field manager records keys, list items and which scalars are empty), and the verdict of
// the body decoder's type check (a string member is checked for being a string). Controllers send
// many objects of one shape (a ReplicaSet's Pods differ in the masked members only; an object
// written back differs from the one read before in its resourceVersion), and each walk costs a
// typed pass over the whole object. A run of one shape is recognised by comparing each object with
// the last one found, member by member, which costs a third of writing its key.
import type { KubeObject } from '../../api/meta.js';
import { jsonEqual } from '../patch/json.js';
import { setMember } from './set-member.js';

/**
 * The largest key remembered, and the largest body worth keying (its key is about as long): a
 * big ConfigMap or Secret is keyed by its data, which would be kept whole for nothing.
 */
export const maxShapeBytes = 16 * 1024;

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string stands for every string of its zero-ness: the empty string, or any other. */
const maskString = (v: unknown): unknown => (typeof v === 'string' && v !== '' ? '-' : v);

function maskValues(map: unknown): unknown {
  if (!isObject(map)) return map;
  const out: JSONObject = {};
  for (const key in map) setMember(out, key, maskString(map[key]));
  return out;
}

const maskedMembers = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion'] as const;

/** Whether the object can be keyed: it has metadata without managedFields, from a small body. */
function keyable(obj: KubeObject, bodyBytes: number): boolean {
  const meta: unknown = obj.metadata;
  return bodyBytes <= maxShapeBytes && isObject(meta) && !Object.hasOwn(meta, 'managedFields');
}

/**
 * The key of the object's shape: its JSON with the name, generated name, namespace, uid,
 * resourceVersion and the values of labels and annotations masked. Everything else is as it is:
 * list items (whose keys and values name elements), numbers, and the values defaulting made.
 * Undefined for an object carrying managedFields (a create's request then names managers of its
 * own), without metadata, or decoded from a body over `maxShapeBytes` long (`bodyBytes`, 0 when the
 * caller knows no body).
 */
export function shapeKey(obj: KubeObject, bodyBytes = 0): string | undefined {
  return keyable(obj, bodyBytes) ? maskedKey(obj) : undefined;
}

/** shapeKey of an object already found keyable. */
function maskedKey(obj: KubeObject): string {
  const masked: JSONObject = { ...obj.metadata };
  for (const key of maskedMembers) if (Object.hasOwn(masked, key)) masked[key] = maskString(masked[key]);
  if (Object.hasOwn(masked, 'labels')) masked['labels'] = maskValues(masked['labels']);
  if (Object.hasOwn(masked, 'annotations')) masked['annotations'] = maskValues(masked['annotations']);
  return JSON.stringify({ ...obj, metadata: masked });
}

/**
 * The members of `obj` that are not undefined (JSON text leaves those out), each `same` as the
 * member of `model` of its name, and `model` has no others. Member order is not compared.
 */
function sameMembers(
  model: JSONObject,
  obj: JSONObject,
  same: (model: unknown, value: unknown, key: string) => boolean,
): boolean {
  let n = 0;
  for (const key in obj) {
    const v = obj[key];
    if (v === undefined) continue;
    n++;
    if (!same(model[key], v, key)) return false;
  }
  for (const _ in model) n--;
  return n === 0;
}

const sameMasked = (model: unknown, value: unknown): boolean => model === maskString(value);

function sameMaskedValues(model: unknown, value: unknown): boolean {
  if (!isObject(model) || !isObject(value)) return jsonEqual(model, value);
  return sameMembers(model, value, sameMasked);
}

function sameMetadataMember(model: unknown, value: unknown, key: string): boolean {
  switch (key) {
    case 'name':
    case 'generateName':
    case 'namespace':
    case 'uid':
    case 'resourceVersion':
      return sameMasked(model, value);
    case 'labels':
    case 'annotations':
      return sameMaskedValues(model, value);
    default:
      return jsonEqual(model, value);
  }
}

const sameObjectMember = (model: unknown, value: unknown, key: string): boolean =>
  key === 'metadata' && isObject(model) && isObject(value)
    ? sameMembers(model, value, sameMetadataMember)
    : jsonEqual(model, value);

/**
 * Whether `obj` has the shape whose key `model` was parsed from (JSON.parse of a shapeKey), member
 * order aside: what a walk that records sets, or checks types, finds in one it finds in the other.
 * `obj` is JSON data, as decoded and defaulted (jsonEqual compares members, not what a toJSON
 * method would write); a value JSON writes otherwise than it holds (an undefined list item, NaN, a
 * Date) never matches the model's.
 */
export function sameShape(model: JSONObject, obj: KubeObject): boolean {
  return sameMembers(model, obj, sameObjectMember);
}

/** Shapes remembered per walk: a controller's few templates, not every object. */
const maxShapes = 32;

/**
 * Lookups that found nothing in a row, after which only one object in `sampleEvery` is keyed
 * until one is found: where every object has a shape of its own (ConfigMaps with their own data),
 * keying them costs more than the walk it never saves.
 */
const missesBeforeSampling = 16;
const sampleEvery = 16;

interface Remembered<V> {
  readonly key: string;
  readonly value: V;
  /** The key parsed, once the entry is compared with objects (sameShape). */
  model?: JSONObject;
}

/** What lookup found: the value remembered for the shape, or the key to remember one under. */
export type ShapeLookup<V> = { readonly value: V } | { readonly key: string };

/**
 * What a walk found for each shape, the oldest forgotten first. The values must hold for every
 * object of a shape whatever its member order (a set, a verdict).
 */
export class ShapeMemo<V> {
  readonly #byShape = new Map<string, Remembered<V>>();
  // Objects of one shape come in runs: comparing with the last shape found again costs less than
  // keying. A shape becomes the last one when it is found by its key, not when it is remembered:
  // most shapes seen once are never seen again, and comparing with one costs a parse of its key.
  #last: Remembered<V> | undefined;
  #misses = 0;
  #skipped = 0;

  /**
   * The value remembered for the shape of `obj` (decoded from a body `bodyBytes` long, 0 when none
   * is known), else the key to remember it under; undefined for an object that is not keyed.
   */
  lookup(obj: KubeObject, bodyBytes = 0): ShapeLookup<V> | undefined {
    if (!keyable(obj, bodyBytes)) return undefined;
    const last = this.#last;
    if (last !== undefined) {
      last.model ??= JSON.parse(last.key) as JSONObject;
      if (sameShape(last.model, obj)) return last;
    }
    if (this.#misses >= missesBeforeSampling && ++this.#skipped % sampleEvery !== 0) return undefined;
    const key = maskedKey(obj);
    const found = this.#byShape.get(key);
    if (found === undefined) {
      this.#misses++;
      return { key };
    }
    this.#misses = 0;
    this.#last = found;
    return found;
  }

  /** Remembers `value` for the shape keyed `key` (from lookup); a key too long is not kept. */
  remember(key: string, value: V): void {
    if (key.length > maxShapeBytes) return;
    if (this.#byShape.size >= maxShapes) {
      const oldest = this.#byShape.keys().next();
      if (oldest.done !== true) this.#byShape.delete(oldest.value);
    }
    this.#byShape.set(key, { key, value });
  }
}
