// Go's encoding/json error texts for type mismatches, with the field context kube's fork adds.
import { goQuote } from './go-quote.js';
import type { WalkState } from './node.js';

/** How Go's decoder names a JSON value in UnmarshalTypeError. */
export function jsonValueKind(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  return value === null ? 'null' : 'object';
}

/** `json: cannot unmarshal <what> into Go struct field <Struct>.<a.b.c> of type <goType>`. */
export function unmarshalTypeError(st: WalkState, what: string, goType: string): string {
  let struct = '';
  let field = '';
  for (let i = 0; i < st.path.length; i++) {
    const owner = st.structs[i];
    if (owner === undefined || owner === '') continue;
    struct = owner;
    field = field === '' ? String(st.path[i]) : `${field}.${String(st.path[i])}`;
  }
  if (struct === '' && field === '') return `json: cannot unmarshal ${what} into Go value of type ${goType}`;
  return `json: cannot unmarshal ${what} into Go struct field ${struct}.${field} of type ${goType}`;
}

/** Keeps the first error, as decodeState.saveError. */
export function saveTypeError(st: WalkState, what: string, goType: string): void {
  st.saved ??= unmarshalTypeError(st, what, goType);
}

/** The strict path of `key` under the current position (`spec.containers[0].name`). */
export function strictPath(path: readonly (string | number)[], key: string | undefined): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  if (key === undefined) return out;
  return out === '' ? key : `${out}.${key}`;
}

export const unknownFieldError = (path: string): string => `unknown field ${goQuote(path)}`;
export const duplicateFieldError = (path: string): string => `duplicate field ${goQuote(path)}`;

/** Go number text for a JS number, for `number 1.5` in messages. */
export function goNumberText(n: number): string {
  return String(n);
}
