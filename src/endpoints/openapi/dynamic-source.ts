// Groups and definitions that come and go while the server runs (custom resources): the OpenAPI
// documents take them next to the Scheme's, as kube-apiserver merges the specs of CRDs into its own
// (apiextensions-apiserver pkg/controller/openapi).
import type { Definitions, Schema } from '../../api/schema/types.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import type { GVK } from './operation-spec.js';
import type { DefinitionSource } from './schema-convert.js';

export type OpenAPIVersion = 'v2' | 'v3';

export interface OpenAPIDynamicSource {
  /** The groups served now; a new array whenever they (or their definitions) change. */
  groups(): readonly APIGroupInfo[];
  /**
   * The definitions of their kinds as one OpenAPI version publishes them, each kind's carrying
   * `x-kubernetes-group-version-kind`; refers to the Scheme's definitions (ObjectMeta) by name.
   */
  definitions(version: OpenAPIVersion): Definitions;
}

/** `scheme`'s definitions with `extra`'s added (an extra one wins over a same-named one). */
export function withDefinitions(scheme: DefinitionSource, extra: Definitions): DefinitionSource {
  let all: Definitions | undefined;
  return {
    definition: (name: string): Schema | undefined => extra[name] ?? scheme.definition(name),
    definitions: (): Definitions => (all ??= { ...scheme.definitions(), ...extra }),
  };
}

const keyOf = (gvk: GVK): string => `${gvk.group}/${gvk.version}/${gvk.kind}`;

/** Finds the definition of a kind among `definitions` by their `x-kubernetes-group-version-kind`. */
export function kindDefinitions(definitions: Definitions): (gvk: GVK) => string | undefined {
  const byKind = new Map<string, string>();
  for (const [name, schema] of Object.entries(definitions))
    for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) byKind.set(keyOf(gvk), name);
  return (gvk) => byKind.get(keyOf(gvk));
}
