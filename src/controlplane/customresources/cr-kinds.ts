// What the endpoints need to know of the custom resource kinds being served: which kinds exist
// (decoding checks a body's apiVersion and kind), each version's schema as the field managers read
// schemas (server-side apply), and the decoder that prunes unknown fields and applies defaults.
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { JSONSchemaProps } from '../../api/apiextensions/v1/json-schema-props.js';
import type { KubeObject } from '../../api/meta.js';
import { OBJECT_META } from '../../api/meta/v1/object-meta.js';
import { apiVersionOf, type Scheme } from '../../api/scheme.js';
import type { GoOmitEmptyTable } from '../../api/schema/go-omit-empty.js';
import type { Schema, SchemaType } from '../../api/schema/types.js';
import type { SchemaSource } from '../../endpoints/fieldmanager/field-managers.js';
import type { KindRegistry, StructuralDecoder } from '../../endpoints/request/decode-object.js';
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import { schemaOf } from '../../registry/apiextensions/customresource/crd-version.js';
import { applyDefaults } from '../../registry/apiextensions/customresource/schema/defaults.js';
import { pruneUnknownFields } from '../../registry/apiextensions/customresource/schema/prune.js';

const definitionPrefix = 'customresource:';
const keyOf = (gvk: { group: string; version: string; kind: string }): string =>
  `${gvk.group}/${gvk.version}/${gvk.kind}`;

const schemaTypes = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

/** A CRD schema node as the field managers' Schema: types, nesting and the list/map annotations. */
function toSchema(p: JSONSchemaProps, root: boolean): Schema {
  const out: Schema = {};
  if (p.type !== undefined && schemaTypes.has(p.type)) out.type = p.type as SchemaType;
  if (p['x-kubernetes-int-or-string'] === true) out['x-kubernetes-int-or-string'] = true;
  if (p['x-kubernetes-preserve-unknown-fields'] === true) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (p['x-kubernetes-embedded-resource'] === true) out['x-kubernetes-embedded-resource'] = true;
  const listType = p['x-kubernetes-list-type'];
  if (listType === 'atomic' || listType === 'set' || listType === 'map')
    out['x-kubernetes-list-type'] = listType;
  if (p['x-kubernetes-list-map-keys'] !== undefined)
    out['x-kubernetes-list-map-keys'] = [...p['x-kubernetes-list-map-keys']];
  const mapType = p['x-kubernetes-map-type'];
  if (mapType === 'atomic' || mapType === 'granular') out['x-kubernetes-map-type'] = mapType;
  if (p.properties !== undefined) {
    out.properties = {};
    for (const [name, child] of Object.entries(p.properties)) out.properties[name] = toSchema(child, false);
  }
  if (root) {
    out.properties = { ...out.properties, metadata: { $ref: OBJECT_META } };
    out.properties['apiVersion'] ??= { type: 'string' };
    out.properties['kind'] ??= { type: 'string' };
  }
  const items = p.items;
  if (items !== undefined && !Array.isArray(items) && typeof items === 'object')
    out.items = toSchema(items, false);
  const additional = p.additionalProperties;
  if (typeof additional === 'boolean') out.additionalProperties = additional;
  else if (additional !== undefined && typeof additional === 'object')
    out.additionalProperties = toSchema(additional, false);
  return out;
}

interface ServedKind {
  readonly crd: CustomResourceDefinition;
  readonly version: string;
  readonly schema: JSONSchemaProps;
  fieldSchema?: Schema;
}

/** The kinds of a set of CRDs, for one route table's handlers. */
export class CustomResourceKinds implements KindRegistry, SchemaSource, StructuralDecoder {
  readonly #kinds = new Map<string, ServedKind>();
  readonly #scheme: Scheme;

  /** `scheme` resolves the built-in definitions a custom resource refers to (ObjectMeta). */
  constructor(crds: readonly CustomResourceDefinition[], scheme: Scheme) {
    this.#scheme = scheme;
    for (const crd of crds) {
      for (const v of crd.spec.versions) {
        if (!v.served) continue;
        const gvk = { group: crd.spec.group, version: v.name, kind: crd.spec.names.kind };
        this.#kinds.set(keyOf(gvk), { crd, version: v.name, schema: schemaOf(crd, v.name) });
      }
    }
  }

  #find(apiVersion: string, kind: string): ServedKind | undefined {
    const slash = apiVersion.indexOf('/');
    if (slash < 0) return undefined;
    return this.#kinds.get(`${apiVersion}/${kind}`);
  }

  kindFor(apiVersion: string, kind: string): { readonly definition: string } | undefined {
    return this.#find(apiVersion, kind) === undefined
      ? undefined
      : { definition: `${definitionPrefix}${apiVersion}/${kind}` };
  }

  /**
   * The schemas the field managers of the custom resources' routes read: these kinds, and the
   * built-in kinds their subresources serve (the autoscaling/v1 Scale of a scale subresource).
   */
  fieldSchemas(): SchemaSource & Pick<CustomResourceKinds, 'goOmitEmpty'> {
    return {
      kindFor: (apiVersion, kind) => this.kindFor(apiVersion, kind) ?? this.#scheme.kindFor(apiVersion, kind),
      resolve: (schema) => this.resolve(schema),
      goOmitEmpty: (definition) => this.goOmitEmpty(definition),
    };
  }

  resolve(schema: Schema): Schema {
    const ref = schema.$ref;
    if (ref === undefined || !ref.startsWith(definitionPrefix)) return this.#scheme.resolve(schema);
    const rest = ref.slice(definitionPrefix.length);
    const cut = rest.lastIndexOf('/');
    const served = this.#find(rest.slice(0, cut), rest.slice(cut + 1));
    if (served === undefined) throw new Error(`unknown definition ${ref}`);
    served.fieldSchema ??= toSchema(served.schema, true);
    return served.fieldSchema;
  }

  /**
   * The built-in definitions' omitempty members: a custom resource's metadata is coerced through
   * ObjectMeta on decode in kube, so its field manager sees it as Go leaves it; the rest of a custom
   * resource is unstructured, kept as sent.
   */
  goOmitEmpty(definition: string): GoOmitEmptyTable | undefined {
    return definition.startsWith(definitionPrefix) ? undefined : this.#scheme.goOmitEmpty(definition);
  }

  /** Prunes what the version's schema does not name (reported for fieldValidation) and defaults. */
  decode(
    gvk: GroupVersionKind,
    input: { readonly value: Record<string, unknown> },
  ): { ok: true; object: KubeObject; strictErrors: readonly string[] } | { ok: false; message: string } {
    const served = this.#find(apiVersionOf(gvk), gvk.kind);
    const obj = input.value as KubeObject;
    if (served === undefined) return { ok: true, object: obj, strictErrors: [] };
    const pruned = pruneUnknownFields(obj, served.schema, { isResourceRoot: true });
    applyDefaults(obj, served.schema);
    return { ok: true, object: obj, strictErrors: pruned.map((path) => `unknown field "${path}"`) };
  }
}
