// Lone UTF-16 surrogates, as Go's JSON decoder reads them. JSON text may escape half of a surrogate
// pair on its own (`"\ud800"`): JSON.parse gives a JavaScript string holding that half, while Go's
// encoding/json (unquote) decodes it as U+FFFD, the replacement character, in values and keys
// alike. kube-apiserver decodes every body into Go values, so what it stores, validates and serves
// holds U+FFFD there, never the half. Raw bytes cannot carry one: decoding UTF-8 already replaces
// invalid sequences with U+FFFD, as Go does.
import { setMember } from './set-member.js';

// A `\u` escape of a surrogate, D800–DFFF. A text without one needs no walk; an escaped backslash
// before the `u` (`\\ud800`, plain text) also matches, which only costs a walk that changes nothing.
const surrogateEscape = /\\u[dD][89a-fA-F]/;

/** Whether JSON text may hold an escaped lone surrogate (false: it surely holds none). */
export function mayEscapeSurrogate(text: string): boolean {
  return text.includes('\\u') && surrogateEscape.test(text);
}

const wellFormedString = (s: string): string => (s.isWellFormed() ? s : s.toWellFormed());

function wellFormedObject(obj: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const value = obj[key];
    const k = wellFormedString(key);
    const v = wellFormedJSON(value);
    if (out === undefined && (k !== key || v !== value)) {
      // Rebuilt from here on, the members before this one as they were (in their order).
      out = {};
      for (let j = 0; j < i; j++) setMember(out, keys[j] as string, obj[keys[j] as string]);
    }
    // Two keys that differ only in their lone surrogates are one key now: the later one wins, as
    // it does in Go's decoding of a repeated key.
    if (out !== undefined) setMember(out, k, v);
  }
  return out ?? obj;
}

/**
 * A JSON value with each lone surrogate in its strings and keys replaced by U+FFFD, as Go's decoder
 * reads them; parts with none are shared, and the value itself is returned when it has none.
 */
export function wellFormedJSON(value: unknown): unknown {
  if (typeof value === 'string') return wellFormedString(value);
  if (typeof value !== 'object' || value === null) return value;
  if (!Array.isArray(value)) return wellFormedObject(value as Record<string, unknown>);
  let out: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const v: unknown = value[i];
    const w = wellFormedJSON(v);
    if (w !== v) (out ??= value.slice())[i] = w;
  }
  return out ?? value;
}

/** JSON.parse of `text`, its escaped lone surrogates read as Go reads them (U+FFFD). */
export function parseWellFormed(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return mayEscapeSurrogate(text) ? wellFormedJSON(value) : value;
}
