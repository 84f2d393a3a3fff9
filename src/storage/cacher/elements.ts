// How objects arriving from storage become cache elements: the served JSON from the bytes storage
// had at hand (spliced, not encoded again), the key, attributes and index values from the object,
// which is then let go. A deletion reuses what the cache knew of the object.
import type { KubeObject } from '../../api/meta.js';
import { servedFromObject } from '../encoded-reads.js';
import type { ObjectAttrs, SelectionPredicate, Versioner } from '../interfaces.js';
import type { StoredState } from '../watch-chan.js';
import {
  locateResourceVersion,
  servedOfWrite,
  spliceResourceVersion,
  withResourceVersion,
  type ServedJSON,
} from '../served-json.js';
import { normalizeObjectKey } from './keys.js';
import type { AttrFunc } from './options.js';
import { decodeElement, type JSONDecode, type StoreElement } from './watch-cache-event.js';

export interface ElementRules<T extends KubeObject> {
  readonly keyFunc: (obj: T) => string;
  readonly getAttrsFunc: AttrFunc<T>;
  /** The index values of an object by index name (the trigger and the configured indexers). */
  readonly indexValues: (obj: T) => Record<string, readonly string[]>;
  readonly versioner: Versioner;
  /** The storage codec's decode, kept with each element (JSON.parse when absent). */
  readonly decode?: JSONDecode | undefined;
}

/** An object from storage, with how it is stored when storage had that at hand. */
export interface Arrival<T extends KubeObject> {
  readonly object: T;
  readonly stored?: StoredState;
}

const sameStrings = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean => {
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
};

const sameLists = (
  a: Readonly<Record<string, readonly string[]>>,
  b: Readonly<Record<string, readonly string[]>>,
): boolean => {
  let n = 0;
  for (const k in a) {
    const x = a[k] ?? [];
    const y = b[k];
    if (y === undefined || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
};

/**
 * The attributes kept for `obj`: those of `known` (the cache's element for its key) when they did
 * not change, as an update mostly leaves them, so that an event in the window holds no copy of
 * its own; else a copy (the object may be a writer's, shared with the write's caller).
 */
function attrsOf<T extends KubeObject>(
  rules: ElementRules<T>,
  obj: T,
  known: StoreElement<T> | undefined,
): ObjectAttrs {
  const attrs = rules.getAttrsFunc(obj);
  if (
    known !== undefined &&
    sameStrings(known.attrs.labels, attrs.labels) &&
    sameStrings(known.attrs.fields, attrs.fields)
  )
    return known.attrs;
  return { labels: { ...attrs.labels }, fields: attrs.fields };
}

/**
 * A cache element, its served JSON and attributes held in its own fields: the watch cache holds one
 * per object and one per event in its window, and every mark-compact walks them; a ServedJSON and an
 * ObjectAttrs object of their own would be two more objects each (`served` and `attrs` give the
 * element itself, which has their members).
 */
class CacheElement<T extends KubeObject> implements StoreElement<T> {
  readonly key: string;
  readonly resourceVersion: number;
  readonly json: Buffer;
  readonly rvStart: number;
  readonly rvEnd: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly fields: Readonly<Record<string, string>>;
  readonly indexValues: Readonly<Record<string, readonly string[]>>;
  readonly decode: JSONDecode | undefined;

  constructor(parts: {
    key: string;
    resourceVersion: number;
    served: ServedJSON;
    attrs: ObjectAttrs;
    indexValues: Readonly<Record<string, readonly string[]>>;
    decode: JSONDecode | undefined;
  }) {
    this.key = parts.key;
    this.resourceVersion = parts.resourceVersion;
    this.json = parts.served.json;
    this.rvStart = parts.served.rvStart;
    this.rvEnd = parts.served.rvEnd;
    this.labels = parts.attrs.labels;
    this.fields = parts.attrs.fields;
    this.indexValues = parts.indexValues;
    this.decode = parts.decode;
  }

  get served(): ServedJSON {
    return this;
  }

  get attrs(): ObjectAttrs {
    return this;
  }
}

function build<T extends KubeObject>(
  rules: ElementRules<T>,
  obj: T,
  at: { served: ServedJSON; rv: number; key: string; known: StoreElement<T> | undefined },
): StoreElement<T> {
  const { known } = at;
  const indexValues = rules.indexValues(obj);
  return new CacheElement<T>({
    key: at.key,
    resourceVersion: at.rv,
    served: at.served,
    attrs: attrsOf(rules, obj, known),
    indexValues:
      known !== undefined && sameLists(known.indexValues, indexValues) ? known.indexValues : indexValues,
    decode: rules.decode,
  });
}

/** The cache's key for an object. */
export function elementKeyOf<T extends KubeObject>(rules: ElementRules<T>, obj: T): string {
  return normalizeObjectKey(rules.keyFunc(obj));
}

/**
 * The element for an added or modified object. `at` is where the cache keeps it: its key, and the
 * element there now, which lends its attributes and index values where they did not change.
 */
export function elementOf<T extends KubeObject>(
  rules: ElementRules<T>,
  arrival: Arrival<T>,
  at?: { readonly key: string; readonly known: StoreElement<T> | undefined },
): StoreElement<T> {
  const { object, stored } = arrival;
  const rv = stored?.revision ?? rules.versioner.objectResourceVersion(object);
  const served =
    (stored === undefined ? null : servedOfWrite(object, stored.data, rv)) ?? servedFromObject(object);
  return build(rules, object, {
    served,
    rv,
    // The known element's key is the same string: keeping it lets the new one go.
    key: at?.known?.key ?? at?.key ?? elementKeyOf(rules, object),
    known: at?.known,
  });
}

/**
 * The element for a deletion: the last state at the deletion's revision. With what the cache held
 * of the object, nothing is decoded.
 */
export function deletedElementOf<T extends KubeObject>(
  rules: ElementRules<T>,
  arrival: Arrival<T>,
  known: StoreElement<T> | undefined,
): StoreElement<T> {
  const { stored } = arrival;
  if (known === undefined || stored === undefined) return elementOf(rules, arrival);
  const rv = stored.revision;
  const served = spliceResourceVersion(stored.data, rv) ?? withResourceVersion(known.served, rv);
  return new CacheElement<T>({
    key: known.key,
    resourceVersion: rv,
    served,
    attrs: known.attrs,
    indexValues: known.indexValues,
    decode: known.decode,
  });
}

/** The element for JSON as reads serve it (a relist's items). */
export function elementOfServed<T extends KubeObject>(rules: ElementRules<T>, json: Buffer): StoreElement<T> {
  const obj = JSON.parse(json.toString('utf8')) as T;
  const rv = rules.versioner.objectResourceVersion(obj);
  const served = locateResourceVersion(json) ?? servedFromObject(obj);
  return build(rules, obj, { served, rv, key: elementKeyOf(rules, obj), known: undefined });
}

/** Whether a predicate selects an element: on its attributes, or on a decode for predicates without attribute matching. */
export function matchesElement<T extends KubeObject>(
  pred: SelectionPredicate<T> | undefined,
  el: StoreElement<T>,
): boolean {
  if (pred === undefined) return true;
  return pred.matchesAttrs !== undefined ? pred.matchesAttrs(el.attrs) : pred.matches(decodeElement(el));
}
