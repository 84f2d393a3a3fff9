// Reads apiVersion and kind from a parsed body as kube's json serializer does before decoding
// (SimpleMetaFactory.Interpret): encoding/json into an anonymous struct, so keys match
// case-insensitively, the last match wins, and errors name the anonymous struct.
import { jsonValueKind } from './go-errors.js';

const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

export type TypeMetaResult =
  | { readonly ok: true; readonly group: string; readonly version: string; readonly kind: string }
  | { readonly ok: false; readonly error: string };

const fail = (error: string): TypeMetaResult => ({
  ok: false,
  error: `couldn't get version/kind; json parse error: ${error}`,
});

/** Go's strings.EqualFold against an ASCII name, including the Kelvin sign that folds to k. */
const foldsTo = (key: string, name: string): boolean =>
  key.length === name.length && key.replace(/\u212a/g, 'k').toLowerCase() === name;

export function interpretTypeMeta(body: unknown): TypeMetaResult {
  if (body === null) return { ok: true, group: '', version: '', kind: '' };
  if (typeof body !== 'object' || Array.isArray(body)) {
    return fail(`json: cannot unmarshal ${jsonValueKind(body)} into Go value of type ${findKindType}`);
  }
  const found = { apiVersion: '', kind: '' };
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const field = foldsTo(key, 'apiversion') ? 'apiVersion' : foldsTo(key, 'kind') ? 'kind' : undefined;
    if (field === undefined || value === null) continue;
    if (typeof value !== 'string') {
      return fail(
        `json: cannot unmarshal ${jsonValueKind(value)} into Go struct field .${field} of type string`,
      );
    }
    found[field] = value;
  }
  const parts = found.apiVersion.split('/');
  if (parts.length > 2) return { ok: false, error: `unexpected GroupVersion string: ${found.apiVersion}` };
  const slash = found.apiVersion.indexOf('/');
  const group = slash === -1 ? '' : found.apiVersion.slice(0, slash);
  const version = found.apiVersion.slice(slash + 1);
  return { ok: true, group, version, kind: found.kind };
}
