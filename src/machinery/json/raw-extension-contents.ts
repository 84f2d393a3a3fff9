// Where a built-in object holds a runtime.RawExtension: Go keeps its JSON as the client sent it
// (k8s.io/apimachinery runtime/extension.go: MarshalJSON returns Raw as it is, and encoding/json
// only compacts it), so nothing inside is sorted or put in a struct's order, not even a map's
// index keys ("10" before "9"), which goJSONText sorts everywhere else. A ControllerRevision's
// `data` is such a member. Which members hold one is read from the scheme (definitions whose
// protobuf codec is 'rawExtension'), compiled per definition once and kept per scheme; an
// AdmissionReview, which no served kind describes, is known here.
import type { Scheme } from '../../api/scheme.js';
import type { Schema } from '../../api/schema/types.js';

/**
 * How to reach the RawExtensions below a value of a definition; null where there are none.
 * `embedded`: a RawExtension the server fills by encoding an object of its own (an admission
 * review's object), whose own RawExtensions are what is kept.
 */
type RawPath =
  | { readonly kind: 'raw' | 'embedded' }
  | { readonly kind: 'struct'; readonly members: ReadonlyMap<string, RawPath> }
  | { readonly kind: 'list' | 'map'; readonly item: RawPath };

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

class RawPaths {
  readonly #scheme: Scheme;
  readonly #byDefinition = new Map<string, RawPath | null>();

  constructor(scheme: Scheme) {
    this.#scheme = scheme;
  }

  /** The RawExtensions below a value of `definition` (null: none, or a cycle being compiled). */
  definition(definition: string): RawPath | null {
    const known = this.#byDefinition.get(definition);
    if (known !== undefined) return known;
    if (this.#scheme.protobuf(definition) === 'rawExtension') {
      const raw: RawPath = { kind: 'raw' };
      this.#byDefinition.set(definition, raw);
      return raw;
    }
    // A definition that refers to itself (JSONSchemaProps) holds no RawExtension on the way back.
    this.#byDefinition.set(definition, null);
    const members = new Map<string, RawPath>();
    const properties = this.#scheme.definition(definition)?.properties ?? {};
    for (const [name, schema] of Object.entries(properties)) {
      const path = this.#schema(schema);
      if (path !== null) members.set(name, path);
    }
    const path: RawPath | null = members.size === 0 ? null : { kind: 'struct', members };
    this.#byDefinition.set(definition, path);
    return path;
  }

  #schema(schema: Schema): RawPath | null {
    if (schema.$ref !== undefined) return this.definition(schema.$ref);
    if (schema.type === 'array' && schema.items !== undefined) {
      const item = this.#schema(schema.items);
      return item === null ? null : { kind: 'list', item };
    }
    if (schema.type === 'object' && typeof schema.additionalProperties === 'object') {
      const item = this.#schema(schema.additionalProperties);
      return item === null ? null : { kind: 'map', item };
    }
    return null;
  }
}

const compiled = new WeakMap<Scheme, RawPaths>();

function pathsOf(scheme: Scheme): RawPaths {
  let paths = compiled.get(scheme);
  if (paths === undefined) {
    paths = new RawPaths(scheme);
    compiled.set(scheme, paths);
  }
  return paths;
}

const embedded: RawPath = { kind: 'embedded' };
/**
 * admission/v1 (and v1beta1) AdmissionReview, which kube writes to webhooks though no served kind
 * describes it: its request's object, oldObject and options are objects the server encodes.
 */
const admissionReview: RawPath = {
  kind: 'struct',
  members: new Map([
    [
      'request',
      {
        kind: 'struct',
        members: new Map([
          ['object', embedded],
          ['oldObject', embedded],
          ['options', embedded],
        ]),
      },
    ],
  ]),
};

/** The path of an object of a kind the scheme knows, or of a typed list of one (items without kind). */
function kindPath(paths: RawPaths, scheme: Scheme, value: JSONObject): RawPath | null {
  const { apiVersion, kind } = value;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return null;
  const info = scheme.kindFor(apiVersion, kind);
  if (info !== undefined) return paths.definition(info.definition);
  if (kind === 'AdmissionReview' && apiVersion.startsWith('admission.k8s.io/')) return admissionReview;
  if (!kind.endsWith('List') || !Array.isArray(value['items'])) return null;
  const item = scheme.kindFor(apiVersion, kind.slice(0, -4));
  const itemPath = item === undefined ? null : paths.definition(item.definition);
  return itemPath === null
    ? null
    : { kind: 'struct', members: new Map([['items', { kind: 'list', item: itemPath }]]) };
}

function collect(
  ctx: { paths: RawPaths; scheme: Scheme; into: Set<object> },
  value: unknown,
  path: RawPath,
): void {
  switch (path.kind) {
    case 'raw':
    case 'embedded': {
      // An object of a kind the scheme knows, held as an embedded object (a watch event's, a
      // table row's): written from its Go struct, so its own RawExtensions are what is kept.
      const own = isObject(value) ? kindPath(ctx.paths, ctx.scheme, value) : null;
      if (own !== null) collect(ctx, value, own);
      else if (path.kind === 'raw' && typeof value === 'object' && value !== null) ctx.into.add(value);
      return;
    }
    case 'struct':
      if (!isObject(value)) return;
      for (const [name, member] of path.members) {
        const v = value[name];
        if (v !== undefined && v !== null) collect(ctx, v, member);
      }
      return;
    case 'list':
      if (Array.isArray(value)) for (const item of value as unknown[]) collect(ctx, item, path.item);
      return;
    case 'map':
      if (isObject(value)) for (const key in value) collect(ctx, value[key], path.item);
      return;
  }
}

/**
 * The objects and lists a value holds as RawExtension contents, which Go writes as they were sent:
 * the value is an object of a kind `scheme` knows, or a typed list of one. Empty for anything else.
 */
export function rawExtensionContents(scheme: Scheme, value: unknown): ReadonlySet<object> {
  const into = new Set<object>();
  if (!isObject(value)) return into;
  const paths = pathsOf(scheme);
  const path = kindPath(paths, scheme, value);
  if (path !== null) collect({ paths, scheme, into }, value, path);
  return into;
}
