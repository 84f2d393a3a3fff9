// Members Go's encoding/json writes though they hold their zero value, and which Capstan keeps absent
// in memory. kube decodes every built-in object into its Go struct and encodes it back:
// - a metav1.Time or MicroTime held as a struct (not a pointer) is never empty to omitempty, and its
//   MarshalJSON writes the zero time as `null`: a pod template's `"creationTimestamp":null`, a pod
//   condition's `"lastProbeTime":null` (k8s.io/apimachinery meta/v1 time.go, micro_time.go);
// - a struct held as a struct (`resources`, `lastState`, a template's `metadata`) is written, as `{}`
//   with its own such members, whether it was sent or not;
// - a member without omitempty is written with its zero value: a nil slice, map or pointer as `null`
//   (a Deployment's `"selector":null`, a ClusterRole's `"rules":null`), a scalar as `""`, 0 or false
//   (a core Event's `"reportingComponent":""`).
// In memory such a zero value is absent, whether the JSON had it or nothing (the request decoder
// drops a null member and a zero optional scalar; stored bytes are decoded without them), so that
// an object read back from storage equals the same object decoded from a request. A non-pointer
// struct is present in memory: the request decoder fills it from the schema's `default: {}`. A
// required scalar (a container port's `containerPort`, a ReplicaSet status's `replicas`) is kept in
// memory as sent, its zero included (validation and code read what was sent: a kubelet's
// `restartCount: 0` stays a number), and written with its zero wherever a present struct lacks it:
// a new ReplicaSet's `"status":{"replicas":0}`, a PriorityClass's `"value":0`. Validation refuses a
// spec without one, so it shows in status structs and where validation accepts the zero.
import type { Scheme } from '../../api/scheme.js';
import type { GoOmitEmpty } from '../../api/schema/go-omit-empty.js';
import { isProtobufCodec } from '../../api/schema/protobuf.js';
import type { Schema } from '../../api/schema/types.js';
import type { KeepMember } from './go-member-order.js';
import { KindPlans } from './kind-plans.js';
import { setMember } from './set-member.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const timeDefinitions: ReadonlySet<string> = new Set([`${META}Time`, `${META}MicroTime`]);

/**
 * What Go writes for a member holding its zero value: null for a zero time, the zero struct of a
 * definition, or a JSON value (`""`, 0, false, null for a nil slice, map or pointer). `missing`:
 * the value is also written when the object lacks the member; `absent`: it is moreover read back
 * as absent (null, or the zero of a scalar the schema does not require). A required scalar is
 * written when missing but kept as sent.
 */
export type GoZeroMember =
  | { readonly kind: 'time' }
  | { readonly kind: 'struct'; readonly definition: string }
  | {
      readonly kind: 'value';
      readonly value: unknown;
      readonly missing: boolean;
      readonly absent: boolean;
    };

/** What goZeroMember reads of a Scheme: the definitions, omitempty tables and protobuf tables. */
export type GoZeroSource = Pick<Scheme, 'definition' | 'goOmitEmpty' | 'protobuf'>;

/** Where a member is declared: its definition (the embedded one for an embedded struct's) and JSON name. */
export interface GoMemberSite {
  readonly definition: string;
  readonly name: string;
  /** The member's omitempty class (from the outermost struct's table for an embedded struct's). */
  readonly omit: GoOmitEmpty | undefined;
}

// The zero values of the types with their own MarshalJSON (intstr, resource); others' are null.
const codecZeros: Readonly<Record<string, unknown>> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 0,
  'io.k8s.apimachinery.pkg.api.resource.Quantity': '0',
};

/**
 * Whether a member is a Go pointer, as its protobuf table says (a `*string` without omitempty such
 * as a GRPC probe's `service` is written null when nil, which the OpenAPI cannot tell from a
 * string's "").
 */
function isGoPointer(scheme: GoZeroSource, site: GoMemberSite): boolean {
  const table = scheme.protobuf(site.definition);
  if (table === undefined || isProtobufCodec(table)) return false;
  const entry = table[site.name];
  return typeof entry === 'object' && entry.pointer === true;
}

function zeroJSON(schema: Schema): unknown {
  if (schema.$ref !== undefined) return codecZeros[schema.$ref] ?? null;
  const { type } = schema;
  if (type === 'string') return schema.format === 'byte' ? null : '';
  if (type === 'integer' || type === 'number') return 0;
  // A list, a map or anything kept as JSON: nil, written null.
  return type === 'boolean' ? false : null;
}

const isEmptyObject = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

/**
 * What Go writes for the member `schema` describes when it holds its zero value; undefined for a
 * member Go then leaves out (omitempty), and for a scalar, list, map or pointer of a definition
 * without an omitempty table (whose Go tags are not known). A struct held by value is known by the `default: {}` kube's
 * OpenAPI gives it.
 */
export function goZeroMember(
  scheme: GoZeroSource,
  schema: Schema,
  site: GoMemberSite,
): GoZeroMember | undefined {
  if (site.omit !== undefined) return undefined;
  const ref = schema.$ref;
  if (ref !== undefined && timeDefinitions.has(ref)) return { kind: 'time' };
  if (ref !== undefined && isEmptyObject(schema.default) && scheme.definition(ref)?.properties !== undefined)
    return { kind: 'struct', definition: ref };
  if (scheme.goOmitEmpty(site.definition) === undefined) return undefined;
  const required = scheme.definition(site.definition)?.required?.includes(site.name) === true;
  // TypeMeta's members, embedded in every kind, are omitempty (a reference's required kind is not).
  if (!required && (site.name === 'kind' || site.name === 'apiVersion')) return undefined;
  const value = isGoPointer(scheme, site) ? null : zeroJSON(schema);
  // meta/v1's envelopes (Table, APIGroup, Status...) are built by Capstan whole, never decoded.
  const envelope = site.definition.startsWith(META);
  return {
    kind: 'value',
    value,
    missing: !envelope,
    absent: !envelope && (value === null || !required),
  };
}

/**
 * Where zero members may be found below a struct: its members whose zero is read back as absent
 * (each with that zero), and the members leading to more.
 */
interface ZeroPlan {
  /** The members read back absent when they hold their zero, and that zero (by index). */
  readonly zeroNames: readonly string[];
  readonly zeros: readonly unknown[];
  /** The members below which more may be found, and how to walk each (by index). */
  readonly innerNames: readonly string[];
  readonly inner: readonly ZeroWalk[];
}

type ZeroWalk =
  | { readonly kind: 'struct'; readonly plan: ZeroPlan }
  | { readonly kind: 'list' | 'map'; readonly item: ZeroWalk };

/** The zero a member is read back without: null for a time, the value for another read back absent. */
function absentZero(member: GoZeroMember | undefined): { readonly zero: unknown } | undefined {
  if (member?.kind === 'time') return { zero: null };
  return member?.kind === 'value' && member.absent ? { zero: member.value } : undefined;
}

class ZeroCompiler {
  readonly #scheme: Scheme;
  /** Definition → its plan; null for one without such zeros below it (or being compiled: a cycle). */
  readonly #plans = new Map<string, ZeroPlan | null>();
  readonly #kinds: KindPlans<ZeroPlan>;

  constructor(scheme: Scheme) {
    this.#scheme = scheme;
    this.#kinds = new KindPlans(scheme, (definition) => this.definition(definition));
  }

  kind(apiVersion: string, kind: string): ZeroPlan | null {
    return this.#kinds.get(apiVersion, kind);
  }

  definition(name: string): ZeroPlan | null {
    const known = this.#plans.get(name);
    if (known !== undefined) return known;
    this.#plans.set(name, null);
    const properties = this.#scheme.definition(name)?.properties ?? {};
    const omit = this.#scheme.goOmitEmpty(name);
    const plan: ZeroPlan = { zeroNames: [], zeros: [], innerNames: [], inner: [] };
    for (const [json, schema] of Object.entries(properties)) {
      if (json === 'kind' || json === 'apiVersion') continue;
      const site = { definition: name, name: json, omit: omit?.[json] };
      const absent = absentZero(goZeroMember(this.#scheme, schema, site));
      if (absent !== undefined) {
        (plan.zeroNames as string[]).push(json);
        (plan.zeros as unknown[]).push(absent.zero);
      }
      const walk = this.#walk(schema);
      if (walk !== null) {
        (plan.innerNames as string[]).push(json);
        (plan.inner as ZeroWalk[]).push(walk);
      }
    }
    const found = plan.zeroNames.length > 0 || plan.innerNames.length > 0 ? plan : null;
    this.#plans.set(name, found);
    return found;
  }

  #walk(schema: Schema): ZeroWalk | null {
    if (schema.$ref !== undefined) {
      if (timeDefinitions.has(schema.$ref)) return null;
      const plan = this.definition(schema.$ref);
      return plan === null ? null : { kind: 'struct', plan };
    }
    const items = schema.type === 'array' ? schema.items : undefined;
    const values =
      schema.type === 'object' && typeof schema.additionalProperties === 'object'
        ? schema.additionalProperties
        : undefined;
    const item = items ?? values;
    if (item === undefined) return null;
    const walk = this.#walk(item);
    return walk === null ? null : { kind: items !== undefined ? 'list' : 'map', item: walk };
  }
}

const compilers = new WeakMap<Scheme, ZeroCompiler>();

type JSONObject = Record<string, unknown>;
const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function walkValue(value: unknown, walk: ZeroWalk): unknown {
  if (walk.kind === 'struct') return isObject(value) ? withoutZeros(value, walk.plan) : value;
  if (walk.kind === 'list') {
    if (!Array.isArray(value)) return value;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const o = walkValue(v, walk.item);
      if (o !== v) (out ??= value.slice())[i] = o;
    }
    return out ?? value;
  }
  if (!isObject(value)) return value;
  let out: JSONObject | undefined;
  for (const key in value) {
    const v = value[key];
    const o = walkValue(v, walk.item);
    if (o !== v) (out ??= { ...value })[key] = o;
  }
  return out ?? value;
}

function isZeroAt(plan: ZeroPlan, key: string, v: unknown): boolean {
  const names = plan.zeroNames;
  for (let i = 0; i < names.length; i++) if (names[i] === key) return v === plan.zeros[i];
  return false;
}

function withoutZeros(obj: JSONObject, plan: ZeroPlan, keep?: KeepMember): JSONObject {
  let zeros = false;
  const { zeroNames, innerNames } = plan;
  for (let i = 0; i < zeroNames.length; i++) if (obj[zeroNames[i] as string] === plan.zeros[i]) zeros = true;
  let changed: Map<string, unknown> | undefined;
  for (let i = 0; i < innerNames.length; i++) {
    const name = innerNames[i] as string;
    const v = obj[name];
    if (v === undefined || v === null || keep?.(name, v) === true) continue;
    const o = walkValue(v, plan.inner[i] as ZeroWalk);
    if (o !== v) (changed ??= new Map()).set(name, o);
  }
  if (!zeros && changed === undefined) return obj;
  // A copy rather than a delete: deleting turns an object V8 holds into a slow dictionary.
  const out: JSONObject = {};
  for (const key in obj) {
    const v = obj[key];
    if (zeros && isZeroAt(plan, key, v)) continue;
    setMember(out, key, changed?.has(key) === true ? changed.get(key) : v);
  }
  return out;
}

/**
 * A built-in object without the zero members Go's encoding writes though they are absent in memory
 * (go-zero-members.ts: null times, nil lists, maps and pointers, zero optional scalars), the form
 * the request decoder gives: only the members that may hold one are visited, and only what changes
 * is copied. The input is never changed; it is returned as it is when it holds none. Top-level
 * members `keep` names are not visited (they hold none: the live object's own, already decoded).
 */
export function withoutGoZeroMembers<T>(scheme: Scheme, obj: T, keep?: KeepMember): T {
  if (!isObject(obj)) return obj;
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return obj;
  let compiler = compilers.get(scheme);
  if (compiler === undefined) {
    compiler = new ZeroCompiler(scheme);
    compilers.set(scheme, compiler);
  }
  const plan = compiler.kind(apiVersion, kind);
  return (plan === null ? obj : withoutZeros(obj, plan, keep)) as T;
}
