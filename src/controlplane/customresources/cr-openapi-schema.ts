// The OpenAPI definitions of one served version of a CRD, as apiextensions-apiserver's builder
// (pkg/controller/openapi/builder) makes them: the version's openAPIV3Schema unfolded, with
// apiVersion, kind and metadata added and the kind's x-kubernetes-group-version-kind, plus the list
// kind. For v2 the schema goes through ToStructuralOpenAPIV2 (pkg/controller/openapi/v2) first.
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { JSONSchemaProps } from '../../api/apiextensions/v1/json-schema-props.js';
import { LIST_META } from '../../api/meta/v1/list-meta.js';
import { OBJECT_META } from '../../api/meta/v1/object-meta.js';
import type { Schema } from '../../api/schema/types.js';
import { schemaOf } from '../../registry/apiextensions/customresource/crd-version.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';

type Node = Record<string, unknown>;

const apiVersionDoc =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const kindDoc =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const embeddedAPIVersionDoc =
  'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const embeddedKindDoc =
  'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const metadataDoc =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const listMetadataDoc =
  'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** Keys a structural schema does not keep (kube's NewStructural drops them). */
const dropped = new Set(['id', '$schema', '$ref', 'definitions', 'dependencies', 'patternProperties']);
dropped.add('additionalItems').add('example').add('externalDocs');
const junctors = ['allOf', 'oneOf', 'anyOf', 'not'] as const;

/** `com.example.stable.v1.CronTab` for stable.example.com/v1 CronTab (kube-openapi ToRESTFriendlyName). */
export function customResourceDefinitionName(gvk: { group: string; version: string; kind: string }): string {
  return [...gvk.group.split('.').reverse(), gvk.version, gvk.kind].join('.');
}

const without = (node: Node, keys: readonly string[]): Node =>
  Object.fromEntries(Object.entries(node).filter(([key]) => !keys.includes(key)));

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy in the structural shape, int-or-string and embedded resources unfolded (Structural.Unfold). */
function unfold(p: JSONSchemaProps): Node {
  const out: Node = {};
  for (const [key, value] of Object.entries(p)) {
    if (value === undefined || dropped.has(key)) continue;
    if (key === 'properties' && isNode(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, unfold(isNode(child) ? child : {})]),
      );
    else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isNode(value))
      out[key] = unfold(value);
    else if ((key === 'allOf' || key === 'oneOf' || key === 'anyOf') && Array.isArray(value))
      out[key] = (value as JSONSchemaProps[]).map(unfold);
    else out[key] = deepCopyJSON(value);
  }
  if (p['x-kubernetes-int-or-string'] === true) {
    const either = [{ type: 'integer' }, { type: 'string' }];
    if (out['anyOf'] === undefined) out['anyOf'] = either;
    else out['allOf'] = [{ anyOf: either }, ...((out['allOf'] as Node[] | undefined) ?? [])];
  }
  if (p['x-kubernetes-embedded-resource'] === true) {
    const props = { ...(out['properties'] as Record<string, Node> | undefined) };
    props['apiVersion'] ??= { type: 'string' };
    props['kind'] ??= { type: 'string' };
    props['metadata'] ??= { type: 'object' };
    out['properties'] = props;
  }
  return out;
}

/** ToStructuralOpenAPIV2: what kubectl's v2 models cannot read is dropped, node by node. */
function toOpenAPIV2(node: Node): Node {
  let out = without(node, junctors);
  const properties = isNode(out['properties']) ? (out['properties'] as Record<string, Node>) : undefined;
  const nullableProps = new Set(
    Object.entries(properties ?? {})
      .filter(([, p]) => p['nullable'] === true)
      .map(([name]) => name),
  );
  if (out['nullable'] === true) out = without(out, ['type', 'nullable', 'items', 'properties']);
  if (out['x-kubernetes-preserve-unknown-fields'] === true) out = without(out, ['items', 'properties']);
  if (out['items'] === undefined && out['type'] === 'array') delete out['type'];
  if (out['x-kubernetes-preserve-unknown-fields'] === true && out['type'] === 'object') delete out['type'];
  if (Array.isArray(out['required'])) {
    const additional = out['additionalProperties'];
    const required =
      isNode(additional) && additional['nullable'] === true ? [] : (out['required'] as string[]);
    const kept = required.filter((name) => !nullableProps.has(name));
    if (kept.length > 0) out['required'] = kept;
    else delete out['required'];
  }
  if (isNode(out['properties']))
    out['properties'] = Object.fromEntries(
      Object.entries(out['properties'] as Record<string, Node>).map(([n, p]) => [n, toOpenAPIV2(p)]),
    );
  if (isNode(out['items'])) out['items'] = toOpenAPIV2(out['items']);
  if (isNode(out['additionalProperties']))
    out['additionalProperties'] = toOpenAPIV2(out['additionalProperties']);
  return out;
}

/** addEmbeddedProperties: embedded objects get TypeMeta's fields and ObjectMeta. */
function addEmbeddedProperties(node: Node, v2: boolean): void {
  for (const child of Object.values(isNode(node['properties']) ? node['properties'] : {}))
    if (isNode(child)) addEmbeddedProperties(child, v2);
  if (isNode(node['items'])) addEmbeddedProperties(node['items'], v2);
  if (isNode(node['additionalProperties'])) addEmbeddedProperties(node['additionalProperties'], v2);
  if (v2 && node['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (node['x-kubernetes-embedded-resource'] !== true) return;
  node['properties'] = {
    ...(node['properties'] as Node | undefined),
    apiVersion: { type: 'string', description: embeddedAPIVersionDoc },
    kind: { type: 'string', description: embeddedKindDoc },
    metadata: { $ref: OBJECT_META, description: metadataDoc },
  };
  const required = Array.isArray(node['required']) ? [...(node['required'] as string[])] : [];
  for (const name of ['kind', 'apiVersion']) if (!required.includes(name)) required.push(name);
  node['required'] = required;
}

const typeMeta = (): Node => ({
  apiVersion: { type: 'string', description: apiVersionDoc },
  kind: { type: 'string', description: kindDoc },
});

/** The kind's schema in one OpenAPI version (buildKubeNative). */
function kindSchema(crd: CustomResourceDefinition, version: string, v2: boolean): Node {
  const gvk = { group: crd.spec.group, kind: crd.spec.names.kind, version };
  const source = schemaOf(crd, version);
  const opaque =
    v2 &&
    (source['x-kubernetes-preserve-unknown-fields'] === true || crd.spec.preserveUnknownFields === true);
  if (opaque) return { type: 'object', 'x-kubernetes-group-version-kind': [gvk] };
  const out = v2 ? toOpenAPIV2(unfold(source)) : unfold(source);
  out['properties'] = {
    ...(out['properties'] as Node | undefined),
    metadata: { $ref: OBJECT_META, description: metadataDoc },
    ...typeMeta(),
  };
  addEmbeddedProperties(out, v2);
  out['x-kubernetes-group-version-kind'] = [gvk];
  return out;
}

/** The definitions (kind and list kind) of `version` of `crd`, for OpenAPI v2 or v3. */
export function customResourceDefinitions(
  crd: CustomResourceDefinition,
  opts: { version: string; v2: boolean },
): Record<string, Schema> {
  const { group, names } = crd.spec;
  const { version } = opts;
  const listKind = names.listKind ?? `${names.kind}List`;
  const name = customResourceDefinitionName({ group, version, kind: names.kind });
  const list: Node = {
    description: `${listKind} is a list of ${names.kind}`,
    required: ['items'],
    properties: {
      items: {
        type: 'array',
        description: `List of ${names.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        items: { $ref: name },
      },
      metadata: { $ref: LIST_META, description: listMetadataDoc },
      ...typeMeta(),
    },
    'x-kubernetes-group-version-kind': [{ group, kind: listKind, version }],
  };
  // CRD schemas carry keywords the Schema type does not name; the documents copy them as they are.
  return {
    [name]: kindSchema(crd, version, opts.v2),
    [customResourceDefinitionName({ group, version, kind: listKind })]: list,
  };
}
