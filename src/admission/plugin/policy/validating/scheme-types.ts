// The TypeResolver over the served built-in groups (kube's RESTMapper and DefinitionsSchemaResolver):
// a resource's kind from its storage, the kind's schema from the Scheme with every $ref resolved.
// Shared nodes stay shared, so recursive definitions end in the node already being built.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import type { Scheme } from '../../../../api/scheme.js';
import type { Schema } from '../../../../api/schema/types.js';
import type { APIGroupInfo } from '../../../../registry/rest/api-group-info.js';
import type { TypedKind, TypeResolver } from './type-checking.js';

function resolver(scheme: Scheme): (s: Schema) => JSONSchemaProps {
  const done = new Map<Schema, JSONSchemaProps>();
  const convert = (input: Schema): JSONSchemaProps => {
    const s = input.$ref === undefined ? input : scheme.resolve(input);
    const seen = done.get(s);
    if (seen !== undefined) return seen;
    const out: JSONSchemaProps = {};
    done.set(s, out);
    if (s.type !== undefined) out.type = s.type;
    if (s['x-kubernetes-int-or-string'] === true) out['x-kubernetes-int-or-string'] = true;
    if (s['x-kubernetes-preserve-unknown-fields'] === true)
      out['x-kubernetes-preserve-unknown-fields'] = true;
    if (s.properties !== undefined)
      out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, convert(v)]));
    if (typeof s.additionalProperties === 'object')
      out.additionalProperties = convert(s.additionalProperties);
    if (s.items !== undefined) out.items = convert(s.items);
    return out;
  };
  return convert;
}

/** The resolver of the groups' resources (v1 and every other served version). */
export function schemeTypeResolver(scheme: Scheme, groups: readonly APIGroupInfo[]): TypeResolver {
  const convert = resolver(scheme);
  const schemaOf = (apiVersion: string, kind: string): JSONSchemaProps | undefined => {
    const info = scheme.kindFor(apiVersion, kind);
    const def = info === undefined ? undefined : scheme.definition(info.definition);
    return def === undefined ? undefined : convert(def);
  };
  return {
    schemaOf,
    kindsFor: ({ group, version, resource }) => {
      const storage = groups.find((g) => g.group === group)?.versionedResourcesStorageMap[version]?.[
        resource
      ];
      if (storage === undefined) return [];
      const kind = storage.newObject().kind ?? '';
      const apiVersion = group === '' ? version : `${group}/${version}`;
      const schema = schemaOf(apiVersion, kind);
      return schema === undefined ? [] : [{ group, version, kind, schema } satisfies TypedKind];
    },
  };
}
