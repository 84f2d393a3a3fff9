// Members Go's encoding/json writes though they hold their zero value, and which Capstan keeps absent
// in memory. kube decodes every built-in object into its Go struct and encodes it back:
// - a metav1.Time or MicroTime held as a struct (not a pointer) is never empty to omitempty, and its
//   MarshalJSON writes the zero time as `null`: a pod template's `"creationTimestamp":null`, a pod
//   condition's `"lastProbeTime":null` (k8s.io/apimachinery meta/v1 time.go, micro_time.go);
// - a struct held as a struct (`resources`, `lastState`, a template's `metadata`) is written, as `{}`
//   with its own such members, whether it was sent or not.
// In memory the zero time is one value, absent, whether the JSON had null or nothing (the request
// decoder drops a null member; stored bytes are decoded without it), so that an object read back
// from storage equals the same object decoded from a request. A non-pointer struct is present in
// memory: the request decoder fills it from the schema's `default: {}`.
import type { Scheme } from '../../api/scheme.js';
import type { GoOmitEmpty } from '../../api/schema/go-omit-empty.js';
import type { Schema } from '../../api/schema/types.js';
import { KindPlans } from './kind-plans.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const timeDefinitions: ReadonlySet<string> = new Set([`${META}Time`, `${META}MicroTime`]);

/**
 * What Go writes for a member holding its zero value: null for a zero time, the zero struct of a
 * definition, or a JSON value (`""`, 0, false, null for a nil slice, map or pointer).
 */
export type GoZeroMember =
  | { readonly kind: 'time' }
  | { readonly kind: 'struct'; readonly definition: string }
  | { readonly kind: 'value'; readonly value: unknown };

// The zero values of the types with their own MarshalJSON (intstr, resource); others' are null.
const codecZeros: Readonly<Record<string, unknown>> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 0,
  'io.k8s.apimachinery.pkg.api.resource.Quantity': '0',
};

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
 * member Go then leaves out (omitempty). A struct held by value is known by the `default: {}`
 * kube's OpenAPI gives it. Of these, a time and a struct are written even when the object lacks
 * them; the others only in a zero struct written whole (a required scalar the object lacks is
 * refused by validation anyway).
 */
export function goZeroMember(
  scheme: Scheme,
  schema: Schema,
  omit: GoOmitEmpty | undefined,
): GoZeroMember | undefined {
  if (omit !== undefined) return undefined;
  const ref = schema.$ref;
  if (ref !== undefined && timeDefinitions.has(ref)) return { kind: 'time' };
  if (ref !== undefined && isEmptyObject(schema.default) && scheme.definition(ref)?.properties !== undefined)
    return { kind: 'struct', definition: ref };
  return { kind: 'value', value: zeroJSON(schema) };
}

/** Where zero times may be found below a struct: its time members, and the members leading to more. */
interface TimesPlan {
  readonly times: readonly string[];
  readonly inner: readonly (readonly [string, TimesWalk])[];
}

type TimesWalk =
  | { readonly kind: 'struct'; readonly plan: TimesPlan }
  | { readonly kind: 'list' | 'map'; readonly item: TimesWalk };

class TimesCompiler {
  readonly #scheme: Scheme;
  /** Definition → its plan; null for one without zero times below it (or being compiled: a cycle). */
  readonly #plans = new Map<string, TimesPlan | null>();
  readonly #kinds: KindPlans<TimesPlan>;

  constructor(scheme: Scheme) {
    this.#scheme = scheme;
    this.#kinds = new KindPlans(scheme, (definition) => this.definition(definition));
  }

  kind(apiVersion: string, kind: string): TimesPlan | null {
    return this.#kinds.get(apiVersion, kind);
  }

  definition(name: string): TimesPlan | null {
    const known = this.#plans.get(name);
    if (known !== undefined) return known;
    this.#plans.set(name, null);
    const properties = this.#scheme.definition(name)?.properties ?? {};
    const omit = this.#scheme.goOmitEmpty(name);
    const times: string[] = [];
    const inner: (readonly [string, TimesWalk])[] = [];
    for (const [json, schema] of Object.entries(properties)) {
      if (goZeroMember(this.#scheme, schema, omit?.[json])?.kind === 'time') {
        times.push(json);
        continue;
      }
      const walk = this.#walk(schema);
      if (walk !== null) inner.push([json, walk]);
    }
    const plan = times.length === 0 && inner.length === 0 ? null : { times, inner };
    this.#plans.set(name, plan);
    return plan;
  }

  #walk(schema: Schema): TimesWalk | null {
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

const compilers = new WeakMap<Scheme, TimesCompiler>();

type JSONObject = Record<string, unknown>;
const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function walkValue(value: unknown, walk: TimesWalk): unknown {
  if (walk.kind === 'struct') return isObject(value) ? withoutTimes(value, walk.plan) : value;
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

function withoutTimes(obj: JSONObject, plan: TimesPlan): JSONObject {
  let nulls = false;
  for (const name of plan.times) if (obj[name] === null) nulls = true;
  let changed: Map<string, unknown> | undefined;
  for (const [name, walk] of plan.inner) {
    const v = obj[name];
    if (v === undefined || v === null) continue;
    const o = walkValue(v, walk);
    if (o !== v) (changed ??= new Map()).set(name, o);
  }
  if (!nulls && changed === undefined) return obj;
  // A copy rather than a delete: deleting turns an object V8 holds into a slow dictionary.
  const out: JSONObject = {};
  for (const key in obj) {
    const v = obj[key];
    if (v === null && plan.times.includes(key)) continue;
    out[key] = changed?.has(key) === true ? changed.get(key) : v;
  }
  return out;
}

/**
 * A built-in object without the zero times Go's encoding writes as `null` (the form the request
 * decoder gives): only the members that may hold one are visited, and only what changes is copied.
 * The input is never changed; it is returned as it is when it holds none.
 */
export function withoutZeroTimes<T>(scheme: Scheme, obj: T): T {
  if (!isObject(obj)) return obj;
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return obj;
  let compiler = compilers.get(scheme);
  if (compiler === undefined) {
    compiler = new TimesCompiler(scheme);
    compilers.set(scheme, compiler);
  }
  const plan = compiler.kind(apiVersion, kind);
  return (plan === null ? obj : withoutTimes(obj, plan)) as T;
}
