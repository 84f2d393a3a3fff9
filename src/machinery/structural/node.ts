// A kind's schema compiled into a graph of nodes, each with a check closure that type-checks a
// decoded JSON value the way kube's typed Go decoder would, collects unknown fields, prunes them,
// and fills in defaults.

import type { GoOmitEmptyTable } from '../../api/schema/go-omit-empty.js';

export type NodeKind = 'struct' | 'map' | 'list' | 'leaf' | 'any' | 'raw';

export interface WalkState {
  /** Record unknown fields (Strict and Warn); the slow path reports them itself. */
  readonly collectUnknown: boolean;
  /** Drop unknown fields, as decoding into a Go struct does. */
  readonly prune: boolean;
  readonly defaults: boolean;
  /** Visit keys in sorted order (YAML input: kube's YAML→JSON step sorts keys). */
  readonly sortedKeys: boolean;
  readonly strict: string[];
  /**
   * Object keys seen in the input, at every depth (compared with the text to find repeats);
   * counted inside values the walk does not descend into only when `countKeys`.
   */
  keys: number;
  /** Whether the keys are compared with a text: without one, nothing needs them counted. */
  readonly countKeys: boolean;
  /** The first non-fatal error, as Go's decodeState.savedError. */
  saved: string | undefined;
  /** Strict path segments: field names and map keys as strings, list indices as numbers. */
  readonly path: (string | number)[];
  /** Per segment: the Go struct name owning the field, '' for map keys and list indices. */
  readonly structs: string[];
  /** Objects and lists known to be this walk's output already: left as they are (decodeValue). */
  readonly decoded: WeakSet<object> | undefined;
}

/** Returns the value to store in place of `value` (normally `value` itself). */
export type Check = (value: unknown, st: WalkState) => unknown;

export interface Node {
  readonly kind: NodeKind;
  /** Go type as reflect.Type.String() prints it: `v1.ObjectMeta`, `map[string]string`, `int32`. */
  readonly goType: string;
  check: Check;
  /** struct: fields by JSON name. */
  readonly fields?: Readonly<Record<string, Node>>;
  /** struct: Go type name without package, as Struct in UnmarshalTypeError. */
  readonly structName?: string;
  /** struct: fields with defaults. */
  readonly defaults?: readonly (readonly [string, unknown])[];
  /** struct: the fields Go's omitempty drops when they decode to their zero value, and how. */
  readonly omitEmpty?: GoOmitEmptyTable | undefined;
  /**
   * struct: the optional scalars without omitempty that Go writes as their zero value (`""`, 0)
   * and Capstan keeps absent in memory (go-zero-members.ts), by JSON name, with that zero.
   */
  readonly zeros?: Readonly<Record<string, unknown>>;
  /** struct: keep fields the schema does not name. */
  readonly preserveUnknown?: boolean;
  /** map and list: the element node. */
  readonly elem?: Node;
  /** leaf: what Go stores for a JSON null in a map or list element. */
  readonly zero?: unknown;
  /**
   * leaf: Go reads a number here from its text (an integer's ParseInt, Quantity's own parse), so
   * the text decoder hands its check a number with a fraction or an exponent as a NumberLiteral.
   */
  readonly readsNumberText?: boolean;
}

/** A fatal decode error (kube's decoder returns it at once, as from a custom UnmarshalJSON). */
export class DecodeAbort extends Error {}
