// Small constructors for structural schemas, so a kind's file reads like its Go struct.
import type { Schema } from './types.js';

type Extra = Omit<Schema, 'type' | 'description'>;

function withDescription(schema: Schema, description: string | undefined): Schema {
  return description === undefined ? schema : { ...schema, description };
}

export function str(description?: string, extra: Extra = {}): Schema {
  return withDescription({ type: 'string', ...extra }, description);
}

export function int32(description?: string, extra: Extra = {}): Schema {
  return withDescription({ type: 'integer', format: 'int32', ...extra }, description);
}

export function int64(description?: string, extra: Extra = {}): Schema {
  return withDescription({ type: 'integer', format: 'int64', ...extra }, description);
}

export function bool(description?: string): Schema {
  return withDescription({ type: 'boolean' }, description);
}

export function float64(description?: string): Schema {
  return withDescription({ type: 'number', format: 'double' }, description);
}

/** A Go []byte: base64 text on the wire. */
export function bytes(description?: string): Schema {
  return withDescription({ type: 'string', format: 'byte' }, description);
}

/** A reference to a named definition, optionally with a field description and default. */
export function ref(name: string, description?: string, extra: Extra = {}): Schema {
  return withDescription({ $ref: name, ...extra }, description);
}

export function arrayOf(items: Schema, description?: string, extra: Extra = {}): Schema {
  return withDescription({ type: 'array', items, ...extra }, description);
}

/** A Go map[string]T. */
export function mapOf(values: Schema, description?: string, extra: Extra = {}): Schema {
  return withDescription({ type: 'object', additionalProperties: values, ...extra }, description);
}

export function stringMap(description?: string): Schema {
  return mapOf({ type: 'string' }, description);
}

/** A Go []string that merges as a set. */
export function stringSet(description?: string): Schema {
  return arrayOf({ type: 'string' }, description, { 'x-kubernetes-list-type': 'set' });
}

export function atomicList(items: Schema, description?: string): Schema {
  return arrayOf(items, description, { 'x-kubernetes-list-type': 'atomic' });
}

/** A list merged by key: patch strategy merge on `key`, list-type map with that key. */
export function mapList(items: Schema, key: string, description?: string): Schema {
  return arrayOf(items, description, {
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': [key],
    'x-kubernetes-patch-strategy': 'merge',
    'x-kubernetes-patch-merge-key': key,
  });
}

/** A Go struct. */
export function struct(description: string, properties: Record<string, Schema>, extra: Extra = {}): Schema {
  return { description, type: 'object', properties, ...extra };
}
