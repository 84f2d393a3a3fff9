// A custom-resource-like schema for the patch tests: int-or-string, sets of any values, an atomic
// map, free-form (preserve-unknown-fields) values, a list keyed by two fields one of which has a
// default, maps of structs, and a status.
import type { Schema } from '../../../api/schema/types.js';
import type { SchemaResolver } from '../typed/type-node.js';

const defs: Record<string, Schema> = {
  Widget: {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      spec: {
        type: 'object',
        properties: {
          port: { 'x-kubernetes-int-or-string': true },
          tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
          numbers: { type: 'array', items: {}, 'x-kubernetes-list-type': 'set' },
          selector: {
            type: 'object',
            additionalProperties: { type: 'string' },
            'x-kubernetes-map-type': 'atomic',
          },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          anything: { 'x-kubernetes-preserve-unknown-fields': true },
          items: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['zone', 'name'],
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                zone: { type: 'string', default: 'a' },
                weight: { type: 'integer' },
              },
            },
          },
          byName: { type: 'object', additionalProperties: { $ref: 'Inner' } },
          inner: { $ref: 'Inner' },
        },
      },
      status: { type: 'object', properties: { ready: { type: 'boolean' } } },
    },
  },
  Inner: {
    type: 'object',
    properties: { x: { type: 'string' }, y: { type: 'array', items: { type: 'string' } } },
  },
};

export const widgetResolver: SchemaResolver = {
  resolve(schema: Schema): Schema {
    let s = schema;
    while (s.$ref !== undefined) s = defs[s.$ref] ?? {};
    return s;
  },
};

export const widgetSchema: Schema = { $ref: 'Widget' };
