// The member order Go's encoding/json writes a built-in object in: struct fields in declaration
// order at every level, map keys sorted. kube-apiserver encodes built-in kinds from Go structs, so
// a Pod's spec, its containers and their securityContext come out in k8s.io/api's field order,
// whatever order the client sent. A plan per definition (go-member-plan.ts) says it. Go also
// leaves out a field tagged omitempty that holds its zero value (kube decodes every built-in object
// into its struct and encodes it back): the plan knows which members those are, and drops
// them as it visits them. Go writes a zero time and a struct held by value even when the object
// lacks them (go-zero-members.ts): the plan adds those. An object already in order with nothing to
// drop or add is returned as it is (same reference): nothing is copied.
import type { Scheme } from '../../api/scheme.js';
import { goOmits } from '../../api/schema/go-omit-empty.js';
import { compilerOf, type StructPlan, type ValueOrder, type ZeroMember } from './go-member-plan.js';
import { setMember } from './set-member.js';
import { inKubeMemberOrder } from './kube-member-order.js';
import { sortSmall } from './small-sort.js';
import { compareGoKeys, inGoMapKeyOrder, inSortedMemberOrder } from './sorted-members.js';

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

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
  if (!sorted) sortSmall(keys, compareGoKeys);
  const out: JSONObject = {};
  for (const key of keys) setMember(out, key, values?.has(key) === true ? values.get(key) : map[key]);
  return out;
}

// Marks a member whose value is unchanged, in the values an object is rebuilt with.
const same: unique symbol = Symbol('same');
// Marks a member Go leaves out (omitempty and empty), in the values an object is rebuilt with.
const dropped: unique symbol = Symbol('dropped');

/** Top-level members to leave as they are (inGoMemberOrder's and withoutGoZeroMembers' `keep`). */
export type KeepMember = (key: string, value: unknown) => boolean;

function orderedStruct(obj: JSONObject, plan: StructPlan, keep?: KeepMember): JSONObject {
  // for-in, not Object.keys: most structs are in order already and are only looked over, and the
  // walk then allocates no key arrays (values by member index, holes for unchanged members).
  let n = 0;
  let inOrder = true;
  let last = -1;
  let unknown = false;
  let values: unknown[] | undefined;
  // The members written even when missing that the object holds, counted in this one walk (the
  // key-by-key load of for-in is cheaper than looking each name up again afterwards).
  let held = 0;
  const written = plan.written;
  for (const key in obj) {
    const i = n++;
    const at = plan.position[key];
    if (at === undefined) {
      unknown = true;
      continue;
    }
    if (unknown || at < last) inOrder = false;
    last = at;
    if (written[at] === true && obj[key] !== undefined) held++;
    const omit = plan.omit[at];
    const order = plan.values[at];
    if (omit === undefined && order === undefined) continue;
    const v = obj[key];
    if (keep?.(key, v) === true) continue;
    if (omit !== undefined && goOmits(omit, v)) {
      (values ??= [])[i] = dropped;
      continue;
    }
    if (order === undefined) continue;
    const o = orderedValue(v, order);
    if (o !== v) (values ??= [])[i] = o;
  }
  if (held < plan.zeroAt.length) return withZeroMembers(obj, plan, values);
  if (inOrder && values === undefined) return obj;
  const out: JSONObject = {};
  if (inOrder) {
    let i = 0;
    for (const key in obj) {
      const v = values?.[i++] ?? same;
      if (v !== dropped) setMember(out, key, v === same ? obj[key] : v);
    }
    return out;
  }
  const keys = Object.keys(obj);
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
    if (v !== dropped) setMember(out, key, v === same ? obj[key] : v);
  }
  if (known.length < n)
    for (const key of keys) if (plan.position[key] === undefined) setMember(out, key, obj[key]);
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
  for (const [, key, value] of known) setMember(out, key, value);
  for (const [key, value] of others) setMember(out, key, value);
  return out;
}

/**
 * A built-in object with its members in kube's (Go's) order at every level, as far as the scheme's
 * tables describe it: members they do not know follow the known ones, in their own order. Members
 * tagged omitempty that hold Go's zero value for their type are left out, as Go leaves them; a zero
 * time or a struct held by value that the object lacks is added, as Go writes them. An
 * object of a kind the scheme does not know gets kube's top-level order (inKubeMemberOrder).
 * The input is never changed; parts already in order are shared, and so is the whole when it is.
 * Top-level members `keep` names are left as they are, only placed (the encoder writes them from
 * bytes it already has).
 */
export function inGoMemberOrder<T>(scheme: Scheme, obj: T, keep?: KeepMember): T {
  if (!isObject(obj)) return obj;
  const { apiVersion, kind } = obj;
  const ref =
    typeof apiVersion === 'string' && typeof kind === 'string'
      ? compilerOf(scheme).kind(apiVersion, kind)
      : null;
  const plan = ref?.plan ?? null;
  return (plan === null ? inKubeMemberOrder(obj) : orderedStruct(obj, plan, keep)) as T;
}

/** Whether `value` is an object of a kind the scheme serves (its apiVersion and kind are known). */
export function isSchemeKind(scheme: Scheme, value: unknown): boolean {
  if (!isObject(value)) return false;
  const { apiVersion, kind } = value;
  return (
    typeof apiVersion === 'string' &&
    typeof kind === 'string' &&
    scheme.kindFor(apiVersion, kind) !== undefined
  );
}

/**
 * A built-in object in its Go struct's order, as inGoMemberOrder writes it; anything else (a custom
 * resource, a value that is no object) as it is.
 */
export function inBuiltinGoOrder(scheme: Scheme, value: unknown): unknown {
  return isSchemeKind(scheme, value) ? inGoMemberOrder(scheme, value) : value;
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

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const child of Object.values(v)) deepFreeze(child);
    Object.freeze(v);
  }
  return v;
}

/**
 * The Go zero object of a built-in kind as kube's field manager sees it on a create (a new object
 * of the kind, converted to the version: kind and apiVersion set), in the form Go writes it: its
 * structs held by value as objects, its nils null, its zero scalars and times (`"metadata":
 * {"creationTimestamp":null}`, `"spec":{"containers":null}`). Frozen; undefined for a kind the
 * scheme does not know.
 */
export function goZeroObject(
  scheme: Scheme,
  type: { readonly apiVersion: string; readonly kind: string },
): Readonly<JSONObject> | undefined {
  const target = compilerOf(scheme).kind(type.apiVersion, type.kind);
  if (target === null || target.plan === null) return undefined;
  const zero = zeroValue({ kind: 'struct', target }) as JSONObject;
  return deepFreeze({ ...zero, kind: type.kind, apiVersion: type.apiVersion });
}
