// The old value that goes with each node of an updated custom resource, for validation ratcheting
// (kube 1.33's CRDValidationRatcheting; k8s.io/apiserver pkg/cel/common equality.go,
// CorrelatedObject). Object members correlate by name (a property or an additionalProperties key);
// list items only in a list-type=map list, by their key fields. Items of set, atomic and untyped
// lists have no old value of their own, though the list as a whole may be unchanged. Children are
// made when asked for and kept, so a node's comparison with its old value reuses its children's.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { additionalSchema, isJSONObject, itemsSchema, jsonEqual } from './json-value.js';

const absent = (v: unknown): boolean => v === null || v === undefined;

/** A map-list item's key: every key field present and a scalar; undefined when it has none. */
function mapListKey(keys: readonly string[], item: unknown): string | undefined {
  if (!isJSONObject(item)) return undefined;
  const parts: string[] = [];
  for (const k of keys) {
    if (!Object.hasOwn(item, k)) return undefined;
    const v = item[k];
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;
    parts.push(`${typeof v}:${JSON.stringify(v)}`);
  }
  return parts.join('\u0000');
}

export class Correlation {
  readonly value: unknown;
  readonly old: unknown;
  readonly schema: JSONSchemaProps;
  #unchanged: boolean | undefined;
  // Made on first use: most updates conform and never ask for a child.
  #children: Map<string | number, Correlation | undefined> | undefined;
  #oldByKey: Map<string, unknown> | undefined;

  constructor(value: unknown, old: unknown, schema: JSONSchemaProps) {
    this.value = value;
    this.old = old;
    this.schema = schema;
  }

  /** The member `field` of both objects, under its property or additionalProperties schema. */
  key(field: string): Correlation | undefined {
    return this.#child(field, () => this.#keyChild(field));
  }

  #child(at: string | number, make: () => Correlation | undefined): Correlation | undefined {
    this.#children ??= new Map();
    if (this.#children.has(at)) return this.#children.get(at);
    const child = make();
    this.#children.set(at, child);
    return child;
  }

  #keyChild(field: string): Correlation | undefined {
    const { value, old, schema } = this;
    if (!isJSONObject(value) || !isJSONObject(old)) return undefined;
    if (!Object.hasOwn(value, field) || !Object.hasOwn(old, field)) return undefined;
    const props = schema.properties;
    const sub =
      props !== undefined && Object.hasOwn(props, field)
        ? props[field]
        : additionalSchema(schema.additionalProperties);
    return sub === undefined ? undefined : new Correlation(value[field], old[field], sub);
  }

  /** Item `i` of the new list with the old item of the same key (list-type=map lists only). */
  index(i: number): Correlation | undefined {
    return this.#child(i, () => this.#indexChild(i));
  }

  #indexChild(i: number): Correlation | undefined {
    const { value, old, schema } = this;
    if (!Array.isArray(value) || !Array.isArray(old) || i >= value.length) return undefined;
    if (schema['x-kubernetes-list-type'] !== 'map') return undefined;
    const item: unknown = value[i];
    const oldItem = this.#oldItem(item);
    const items = itemsSchema(schema.items);
    if (absent(oldItem) || items === undefined) return undefined;
    return new Correlation(item, oldItem, items);
  }

  /** The first old item with `item`'s key (kube's MapList.Get). */
  #oldItem(item: unknown): unknown {
    const keys = this.schema['x-kubernetes-list-map-keys'] ?? [];
    if (this.schema.type !== 'array' || keys.length === 0) return undefined;
    if (this.#oldByKey === undefined) {
      this.#oldByKey = new Map();
      for (const oldItem of this.old as unknown[]) {
        const k = mapListKey(keys, oldItem);
        if (k !== undefined && !this.#oldByKey.has(k)) this.#oldByKey.set(k, oldItem);
      }
    }
    const k = mapListKey(keys, item);
    return k === undefined ? undefined : this.#oldByKey.get(k);
  }

  /** Whether the new value equals the old (kube's CachedDeepEqual). */
  unchanged(): boolean {
    this.#unchanged ??= this.#compare();
    return this.#unchanged;
  }

  #compare(): boolean {
    const { value, old } = this;
    if (absent(value) || absent(old)) return absent(value) && absent(old);
    if (Array.isArray(value) || Array.isArray(old)) {
      if (!Array.isArray(value) || !Array.isArray(old) || value.length !== old.length) return false;
      const mapList = this.schema['x-kubernetes-list-type'] === 'map';
      for (let i = 0; i < value.length; i++) {
        const child = this.index(i);
        // Items that do not correlate are compared as one list, unless the list is a map list.
        if (child === undefined) return !mapList && jsonEqual(old, value);
        if (!child.unchanged()) return false;
      }
      return true;
    }
    if (isJSONObject(value) || isJSONObject(old)) {
      if (!isJSONObject(value) || !isJSONObject(old)) return false;
      const keys = Object.keys(value);
      if (keys.length !== Object.keys(old).length) return false;
      return keys.every((k) => this.key(k)?.unchanged() === true);
    }
    return jsonEqual(old, value);
  }
}
