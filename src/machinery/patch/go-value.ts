// Go's fmt renderings of decoded JSON (map[string]interface{} and friends) that kube's patch
// errors embed: %v prints `map[a:1 b:[x y]]`, reflect.TypeOf prints `map[string]interface {}`.
import { goNumber } from '../validation/go-format.js';
import { isJSONObject } from './json.js';

/** fmt's %v (and %+v) of a decoded JSON value; map keys sorted as fmt sorts them. */
export function goValueString(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goValueString).join(' ')}]`;
  if (isJSONObject(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goValueString(v[k])}`).join(' ')}]`;
  }
  return typeof v === 'bigint' ? v.toString() : '';
}

/** reflect.TypeOf(v).String() for a value decoded with preserved integers. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}
