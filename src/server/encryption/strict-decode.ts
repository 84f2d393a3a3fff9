// Decodes a parsed document against a Shape as kube's strict JSON decoder does: the first type
// mismatch is fatal (`json: cannot unmarshal …`), unknown fields are collected (`unknown field
// "…"`), null leaves a field unset, and maps are walked in sorted key order because kube's
// YAML-to-JSON step sorts them.
import { compareGoStrings, goQuote } from '../../machinery/validation/index.js';
import type { Shape } from './config-shape.js';
import { memberOf } from '../../machinery/json/set-member.js';

export interface StrictDecodeResult {
  readonly value: unknown;
  /** The first type error, fatal. */
  readonly error?: string;
  readonly unknownFields: readonly string[];
}

interface Walk {
  /** JSON names from the root, for Go's `Struct.a.b.c` field context. */
  readonly fieldStack: readonly string[];
  /** The innermost struct type whose field is being decoded. */
  readonly struct: string;
  /** `resources[0].providers[1]`, for strict errors. */
  readonly path: string;
  readonly state: { error?: string; unknown: string[] };
}

const kindOf = (v: unknown): string =>
  typeof v === 'string'
    ? 'string'
    : typeof v === 'number'
      ? 'number'
      : typeof v === 'boolean'
        ? 'bool'
        : Array.isArray(v)
          ? 'array'
          : 'object';

function typeError(w: Walk, what: string, goType: string): void {
  if (w.state.error !== undefined) return;
  const at = w.fieldStack.join('.');
  w.state.error =
    at === ''
      ? `json: cannot unmarshal ${what} into Go value of type ${goType}`
      : `json: cannot unmarshal ${what} into Go struct field ${w.struct}.${at} of type ${goType}`;
}

function decodeScalar(value: unknown, shape: Shape, w: Walk): unknown {
  if (shape.kind === 'int32') {
    if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 2 ** 31) return value;
    typeError(w, typeof value === 'number' ? `number ${String(value)}` : kindOf(value), 'int32');
    return undefined;
  }
  if (typeof value === 'string') return value;
  // metav1.Duration unmarshals its JSON as a string first; Go names that struct-less type.
  if (shape.kind === 'duration') {
    w.state.error ??= `json: cannot unmarshal ${kindOf(value)} into Go value of type string`;
    return undefined;
  }
  typeError(w, kindOf(value), 'string');
  return undefined;
}

function decodeStruct(value: unknown, shape: Extract<Shape, { kind: 'struct' }>, w: Walk): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    typeError(w, kindOf(value), shape.goType);
    return undefined;
  }
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compareGoStrings(a, b));
  const struct = shape.goType.replace(/^v1\./, '');
  for (const [key, v] of entries) {
    const path = w.path === '' ? key : `${w.path}.${key}`;
    const field = memberOf(shape.fields, key);
    if (field === undefined) {
      w.state.unknown.push(`unknown field ${goQuote(path)}`);
      continue;
    }
    if (v === null) continue;
    const decoded = decode(v, field, { ...w, fieldStack: [...w.fieldStack, key], struct, path });
    if (decoded !== undefined) out[key] = decoded;
  }
  return out;
}

function decode(value: unknown, shape: Shape, w: Walk): unknown {
  switch (shape.kind) {
    case 'string':
    case 'int32':
    case 'duration':
      return decodeScalar(value, shape, w);
    case 'struct':
      return decodeStruct(value, shape, w);
    case 'list':
      if (!Array.isArray(value)) {
        typeError(w, kindOf(value), shape.goType);
        return undefined;
      }
      return value.map((item, i) =>
        item === null ? defaultOf(shape.of) : decode(item, shape.of, { ...w, path: `${w.path}[${i}]` }),
      );
  }
}

/** What Go leaves in a list element decoded from null: the zero value. */
function defaultOf(shape: Shape): unknown {
  return shape.kind === 'struct' ? {} : shape.kind === 'list' ? undefined : shape.kind === 'string' ? '' : 0;
}

export function strictDecode(value: unknown, shape: Shape): StrictDecodeResult {
  const state: Walk['state'] = { unknown: [] };
  const out = decode(value, shape, { fieldStack: [], struct: '', path: '', state });
  return {
    value: out,
    ...(state.error === undefined ? {} : { error: state.error }),
    unknownFields: [...new Set(state.unknown)],
  };
}
