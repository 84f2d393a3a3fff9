// The member order Go's encoding/json writes a built-in object in: struct fields in declaration
// order at every level, map keys sorted. kube-apiserver encodes built-in kinds from Go structs, so
// a Pod's spec, its containers and their securityContext come out in k8s.io/api's field order,
// whatever order the client sent. The protobuf tables beside each schema list their fields in Go
// order (generated.proto's); a definition without one has its Go JSON shape (go-json-shape.ts); and
// the schema says which members hold nested structs, lists of them or maps. From these a plan is
// compiled per definition, once, when first needed, and kept per scheme. Go also leaves out a
// field tagged omitempty that holds its zero value (kube decodes every built-in object into its
// struct and encodes it back): the plan knows which members those are (go-omit-empty.ts), and drops
// them as it visits them. Go writes a zero time and a struct held by value even when the object
// lacks them (go-zero-members.ts): the plan adds those. An object already in order with nothing to
// drop or add is returned as it is (same reference): nothing is copied.
import type { Scheme } from '../../api/scheme.js';
import { goOmits, type GoOmitEmpty, type GoOmitEmptyTable } from '../../api/schema/go-omit-empty.js';
import { isProtobufCodec, type ProtobufField } from '../../api/schema/protobuf.js';
import type { Schema } from '../../api/schema/types.js';
import { goZeroMember } from './go-zero-members.js';
import { inKubeMemberOrder } from './kube-member-order.js';
import { compareGoKeys, inGoMapKeyOrder, inSortedMemberOrder } from './sorted-members.js';

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * How a member's value is put in order: a struct, a list, a map (keys sorted), a struct or a list of
 * it (a type with its own MarshalJSON), or any JSON kept as Go's interface{} (keys sorted throughout).
 */
type ValueOrder =
  | { readonly kind: 'struct'; readonly target: StructRef }
  | { readonly kind: 'list'; readonly item: ValueOrder }
  | { readonly kind: 'map'; readonly value: ValueOrder | undefined }
  | { readonly kind: 'structOrList'; readonly struct: ValueOrder & { kind: 'struct' } }
  | { readonly kind: 'unstructured' };

/** What is written for a member the object lacks: null (a zero time), or a struct's zero value. */
type ZeroMember =
  | { readonly kind: 'time' }
  | { readonly kind: 'struct'; readonly target: StructRef }
  | { readonly kind: 'value'; readonly value: unknown };

/** A member as Go declares it: its JSON name, or an embedded struct's definition; opaque when its value has a codec. */
type Member = { readonly json: string; readonly inline?: string; readonly opaque: boolean };

/** A struct's members in Go order, and how each one's value is put in order (by position). */
interface StructPlan {
  readonly names: readonly string[];
  /** JSON name → position; a prototype-less record (faster to probe than a Map for member names). */
  readonly position: Readonly<Record<string, number | undefined>>;
  readonly values: readonly (ValueOrder | undefined)[];
  /** How each member is dropped when empty (by position); undefined for one always written. */
  readonly omit: readonly (GoOmitEmpty | undefined)[];
  /**
   * What Go writes for each member holding its zero value (by position; undefined for one it leaves
   * out), and the positions of those written even when the object lacks them (times and structs).
   */
  readonly zero: readonly (ZeroMember | undefined)[];
  readonly zeroAt: readonly number[];
  /** The names of the members at zeroAt, for the check every visit makes. */
  readonly zeroNames: readonly string[];
}

/** The plan being compiled: members in Go order, each one's value order, omitempty class and zero. */
interface PlanParts {
  readonly names: string[];
  readonly values: (ValueOrder | undefined)[];
  readonly omit: (GoOmitEmpty | undefined)[];
  readonly zero: (ZeroMember | undefined)[];
}

/** A definition's plan, compiled on first use (definitions refer to each other, and to themselves). */
class StructRef {
  readonly #compiler: PlanCompiler;
  readonly #definition: string;
  #plan: StructPlan | null = null;
  #compiled = false;

  constructor(compiler: PlanCompiler, definition: string) {
    this.#compiler = compiler;
    this.#definition = definition;
  }

  get plan(): StructPlan | null {
    if (!this.#compiled) {
      this.#plan = this.#compiler.compile(this.#definition);
      this.#compiled = true;
    }
    return this.#plan;
  }
}

class PlanCompiler {
  readonly #scheme: Scheme;
  readonly #refs = new Map<string, StructRef>();
  readonly #kinds = new Map<string, StructRef | null>();

  constructor(scheme: Scheme) {
    this.#scheme = scheme;
  }

  /** A definition's plan to compile when first needed (null then for one without a message table). */
  ref(definition: string): StructRef {
    let ref = this.#refs.get(definition);
    if (ref === undefined) {
      ref = new StructRef(this, definition);
      this.#refs.set(definition, ref);
    }
    return ref;
  }

  /** The plan of a kind's definition; null for a kind the scheme does not know. */
  kind(apiVersion: string, kind: string): StructRef | null {
    const key = `${apiVersion}/${kind}`;
    let ref = this.#kinds.get(key);
    if (ref === undefined) {
      const info = this.#scheme.kindFor(apiVersion, kind);
      ref = info === undefined ? null : this.ref(info.definition);
      this.#kinds.set(key, ref);
    }
    return ref;
  }

  compile(definition: string): StructPlan | null {
    const members = this.#struct(definition);
    if (members === undefined) return null;
    const parts: PlanParts = { names: [], values: [], omit: [], zero: [] };
    const properties = this.#scheme.definition(definition)?.properties ?? {};
    // TypeMeta, embedded first in every Go struct that has it, travels outside the message.
    if ('kind' in properties && 'apiVersion' in properties && !members.some((m) => m.json === 'kind')) {
      parts.names.push('kind', 'apiVersion');
      parts.values.push(undefined, undefined);
      parts.omit.push(undefined, undefined);
      parts.zero.push(undefined, undefined);
    }
    this.#members(definition, parts, { depth: 0, omit: this.#scheme.goOmitEmpty(definition) });
    const position: Record<string, number | undefined> = Object.create(null) as Record<string, number>;
    parts.names.forEach((name, i) => (position[name] = i));
    const zeroAt = parts.zero.flatMap((z, i) => (z === undefined || z.kind === 'value' ? [] : [i]));
    const zeroNames = zeroAt.map((at) => parts.names[at] as string);
    const { names, values, omit, zero } = parts;
    return { names, values, omit, position, zero, zeroAt, zeroNames };
  }

  /** A struct's members in Go order: from its protobuf table, or its Go JSON shape; undefined for anything else. */
  #struct(definition: string): readonly Member[] | undefined {
    const table = this.#scheme.protobuf(definition);
    if (table !== undefined) {
      if (isProtobufCodec(table)) return undefined;
      return Object.entries(table).map(([json, entry]): Member => {
        const spec: ProtobufField = typeof entry === 'number' ? { field: entry } : entry;
        return spec.inline === undefined
          ? { json, opaque: spec.codec !== undefined }
          : { json, inline: spec.inline, opaque: true };
      });
    }
    const shape = this.#scheme.goJSONShape(definition);
    if (shape === undefined || typeof shape !== 'object' || !('fields' in shape)) return undefined;
    return shape.fields.map((json) => ({ json, opaque: false }));
  }

  /**
   * Appends a definition's members; an embedded struct's members go where it is embedded. `omit` is
   * the outer struct's omitempty table (which names its embedded structs' members too).
   */
  #members(
    definition: string,
    into: PlanParts,
    at: { readonly depth: number; readonly omit: GoOmitEmptyTable | undefined },
  ): void {
    const members = this.#struct(definition);
    if (members === undefined || at.depth > 8) return;
    const properties = this.#scheme.definition(definition)?.properties ?? {};
    const own = this.#scheme.goOmitEmpty(definition);
    for (const { json, inline, opaque } of members) {
      if (inline !== undefined) {
        this.#members(inline, into, { depth: at.depth + 1, omit: at.omit });
        continue;
      }
      if (into.names.includes(json)) continue;
      into.names.push(json);
      const property = properties[json];
      into.values.push(opaque || property === undefined ? undefined : this.#valueOrder(property));
      const omit = at.omit?.[json] ?? own?.[json];
      into.omit.push(omit);
      const zero = property === undefined ? undefined : goZeroMember(this.#scheme, property, omit);
      into.zero.push(zero?.kind === 'struct' ? { kind: 'struct', target: this.ref(zero.definition) } : zero);
    }
  }

  #valueOrder(schema: Schema): ValueOrder | undefined {
    if (schema.$ref !== undefined) {
      const shape = this.#scheme.goJSONShape(schema.$ref);
      if (shape === 'unstructured') return { kind: 'unstructured' };
      if (shape !== undefined && 'structOrList' in shape) {
        return { kind: 'structOrList', struct: { kind: 'struct', target: this.ref(shape.structOrList) } };
      }
      return this.#struct(schema.$ref) === undefined
        ? undefined
        : { kind: 'struct', target: this.ref(schema.$ref) };
    }
    if (schema.type === 'array' && schema.items !== undefined) {
      const item = this.#valueOrder(schema.items);
      return item === undefined ? undefined : { kind: 'list', item };
    }
    if (schema.type === 'object' && typeof schema.additionalProperties === 'object') {
      return { kind: 'map', value: this.#valueOrder(schema.additionalProperties) };
    }
    return undefined;
  }
}

// The compiled plans of each scheme, kept as long as the scheme is.
const compilers = new WeakMap<Scheme, PlanCompiler>();

function compilerOf(scheme: Scheme): PlanCompiler {
  let compiler = compilers.get(scheme);
  if (compiler === undefined) {
    compiler = new PlanCompiler(scheme);
    compilers.set(scheme, compiler);
  }
  return compiler;
}

function orderedValue(value: unknown, order: ValueOrder): unknown {
  switch (order.kind) {
    case 'struct': {
      const plan = order.target.plan;
      return plan === null || !isObject(value) ? value : orderedStruct(value, plan);
    }
    case 'list':
      return Array.isArray(value) ? orderedList(value, order.item) : value;
    case 'map':
      return isObject(value) ? orderedMap(value, order.value) : value;
    case 'structOrList':
      return Array.isArray(value) ? orderedList(value, order.struct) : orderedValue(value, order.struct);
    case 'unstructured':
      return inSortedMemberOrder(value);
  }
}

function orderedList(list: readonly unknown[], item: ValueOrder): readonly unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    const o = orderedValue(v, item);
    if (o !== v) {
      out ??= list.slice();
      out[i] = o;
    }
  }
  return out ?? list;
}

function orderedMap(map: JSONObject, value: ValueOrder | undefined): JSONObject {
  const keys = Object.keys(map);
  const sorted = inGoMapKeyOrder(keys);
  let values: Map<string, unknown> | undefined;
  if (value !== undefined) {
    for (const key of keys) {
      const v = map[key];
      const o = orderedValue(v, value);
      if (o !== v) (values ??= new Map()).set(key, o);
    }
  }
  if (sorted && values === undefined) return map;
  if (!sorted) keys.sort(compareGoKeys);
  const out: JSONObject = {};
  for (const key of keys) out[key] = values?.has(key) === true ? values.get(key) : map[key];
  return out;
}

// Marks a member whose value is unchanged, in the values an object is rebuilt with.
const same: unique symbol = Symbol('same');
// Marks a member Go leaves out (omitempty and empty), in the values an object is rebuilt with.
const dropped: unique symbol = Symbol('dropped');

function orderedStruct(obj: JSONObject, plan: StructPlan): JSONObject {
  const keys = Object.keys(obj);
  const n = keys.length;
  let inOrder = true;
  let last = -1;
  let unknown = false;
  let values: unknown[] | undefined;
  for (let i = 0; i < n; i++) {
    const key = keys[i] as string;
    const at = plan.position[key];
    if (at === undefined) {
      unknown = true;
      continue;
    }
    if (unknown || at < last) inOrder = false;
    last = at;
    const omit = plan.omit[at];
    const order = plan.values[at];
    if (omit === undefined && order === undefined) continue;
    const v = obj[key];
    if (omit !== undefined && goOmits(omit, v)) {
      values ??= new Array<unknown>(n).fill(same);
      values[i] = dropped;
      continue;
    }
    if (order === undefined) continue;
    const o = orderedValue(v, order);
    if (o !== v) {
      values ??= new Array<unknown>(n).fill(same);
      values[i] = o;
    }
  }
  const zeroNames = plan.zeroNames;
  for (let z = 0; z < zeroNames.length; z++) {
    if (obj[zeroNames[z] as string] === undefined) return withZeroMembers(obj, plan, values);
  }
  if (inOrder && values === undefined) return obj;
  const out: JSONObject = {};
  if (inOrder) {
    for (let i = 0; i < n; i++) {
      const key = keys[i] as string;
      const v = values?.[i] ?? same;
      if (v !== dropped) out[key] = v === same ? obj[key] : v;
    }
    return out;
  }
  // Known members by their position (an insertion sort: objects have few), then the others.
  const known: number[] = [];
  const positions: number[] = [];
  for (let i = 0; i < n; i++) {
    const at = plan.position[keys[i] as string];
    if (at === undefined) continue;
    let j = known.length;
    known.push(i);
    positions.push(at);
    while (j > 0 && (positions[j - 1] as number) > at) {
      known[j] = known[j - 1] as number;
      positions[j] = positions[j - 1] as number;
      j--;
    }
    known[j] = i;
    positions[j] = at;
  }
  for (const i of known) {
    const key = keys[i] as string;
    const v = values?.[i] ?? same;
    if (v !== dropped) out[key] = v === same ? obj[key] : v;
  }
  if (known.length < n) for (const key of keys) if (plan.position[key] === undefined) out[key] = obj[key];
  return out;
}

/** A fresh zero value of a member the object lacks, as Go writes it. */
function zeroValue(zero: ZeroMember): unknown {
  if (zero.kind === 'time') return null;
  if (zero.kind === 'value') return zero.value;
  const out: JSONObject = {};
  const plan = zero.target.plan;
  if (plan === null) return out;
  for (let at = 0; at < plan.names.length; at++) {
    const z = plan.zero[at];
    if (z !== undefined) out[plan.names[at] as string] = zeroValue(z);
  }
  return out;
}

/**
 * The struct in Go order with the zero members it lacks added in their places (members kube writes
 * though nobody sent them); `values` as orderedStruct computed them for the members it has.
 */
function withZeroMembers(
  obj: JSONObject,
  plan: StructPlan,
  values: readonly unknown[] | undefined,
): JSONObject {
  const known: (readonly [number, string, unknown])[] = [];
  const others: (readonly [string, unknown])[] = [];
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const v = values?.[i] ?? same;
    if (v === dropped) continue;
    const value = v === same ? obj[key] : v;
    const at = plan.position[key];
    if (at === undefined) others.push([key, value]);
    else if (value !== undefined) known.push([at, key, value]);
  }
  for (const at of plan.zeroAt) {
    const name = plan.names[at] as string;
    const zero = plan.zero[at];
    if (obj[name] === undefined && zero !== undefined) known.push([at, name, zeroValue(zero)]);
  }
  known.sort((a, b) => a[0] - b[0]);
  const out: JSONObject = {};
  for (const [, key, value] of known) out[key] = value;
  for (const [key, value] of others) out[key] = value;
  return out;
}

/**
 * A built-in object with its members in kube's (Go's) order at every level, as far as the scheme's
 * tables describe it: members they do not know follow the known ones, in their own order. Members
 * tagged omitempty that hold Go's zero value for their type are left out, as Go leaves them; a zero
 * time or a struct held by value that the object lacks is added, as Go writes them. An
 * object of a kind the scheme does not know gets kube's top-level order (inKubeMemberOrder).
 * The input is never changed; parts already in order are shared, and so is the whole when it is.
 */
export function inGoMemberOrder<T>(scheme: Scheme, obj: T): T {
  if (!isObject(obj)) return obj;
  const { apiVersion, kind } = obj;
  const ref =
    typeof apiVersion === 'string' && typeof kind === 'string'
      ? compilerOf(scheme).kind(apiVersion, kind)
      : null;
  const plan = ref?.plan ?? null;
  return (plan === null ? inKubeMemberOrder(obj) : orderedStruct(obj, plan)) as T;
}

/**
 * The items of a typed list (kind `…List`) in their kind's Go order, as inGoMemberOrder orders an
 * object: kube writes a list's items without their own kind and apiVersion, so the list names them.
 * Items of a kind the scheme does not know are returned as they are.
 */
export function itemsInGoMemberOrder<T>(
  scheme: Scheme,
  list: { readonly apiVersion: string; readonly kind: string },
  items: readonly T[],
): readonly T[] {
  if (!list.kind.endsWith('List')) return items;
  const target = compilerOf(scheme).kind(list.apiVersion, list.kind.slice(0, -4));
  if (target === null || target.plan === null) return items;
  return orderedList(items, { kind: 'struct', target }) as readonly T[];
}
