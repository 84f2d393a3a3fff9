// Structural schemas as OpenAPI v2 and v3 JSON: references become `#/definitions/…` or
// `#/components/schemas/…`; in v3 a reference with siblings is wrapped in allOf, as kube writes it.
import type { Scheme } from '../../api/scheme.js';
import type { Schema } from '../../api/schema/types.js';

export type JsonObject = { [key: string]: unknown };

/** Where the documents find definitions: the Scheme, or the Scheme with custom resources' added. */
export type DefinitionSource = Pick<Scheme, 'definition' | 'definitions'>;

/** Every definition `roots` reach through `$ref`, sorted by name. */
export function reachableDefinitions(scheme: DefinitionSource, roots: Iterable<string>): string[] {
  const seen = new Set<string>();
  const pending = [...roots];
  const visit = (schema: Schema): void => {
    if (schema.$ref !== undefined && !seen.has(schema.$ref)) pending.push(schema.$ref);
    if (schema.items !== undefined) visit(schema.items);
    if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties);
    for (const p of Object.values(schema.properties ?? {})) visit(p);
  };
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name)) continue;
    const schema = scheme.definition(name);
    if (schema === undefined) continue;
    seen.add(name);
    visit(schema);
  }
  return [...seen].sort();
}

type Version = 'v2' | 'v3';
const refPrefix: Record<Version, string> = { v2: '#/definitions/', v3: '#/components/schemas/' };

export function convertSchema(schema: Schema, version: Version): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (value === undefined) continue;
    switch (key) {
      case '$ref':
        break;
      case 'nullable':
        if (version === 'v3') out[key] = value;
        break;
      case 'items':
        out[key] = convertSchema(value as Schema, version);
        break;
      case 'additionalProperties':
        out[key] = typeof value === 'object' ? convertSchema(value as Schema, version) : value;
        break;
      case 'properties':
        out[key] = Object.fromEntries(
          Object.entries(value as Record<string, Schema>).map(([name, p]) => [
            name,
            convertSchema(p, version),
          ]),
        );
        break;
      default:
        out[key] = value;
    }
  }
  if (schema.$ref === undefined) return out;
  const ref = refPrefix[version] + schema.$ref;
  if (version === 'v2') return { $ref: ref, ...out };
  return Object.keys(out).length === 0 ? { $ref: ref } : { allOf: [{ $ref: ref }], ...out };
}

/** The definitions of `names` from the Scheme (with their group-version-kind extensions). */
export function convertDefinitions(
  scheme: DefinitionSource,
  names: readonly string[],
  version: Version,
): JsonObject {
  const all = scheme.definitions();
  const out: JsonObject = {};
  for (const name of names) {
    const schema = all[name];
    if (schema !== undefined) out[name] = convertSchema(schema, version);
  }
  return out;
}

export const refTo = (name: string, version: Version): JsonObject => ({ $ref: refPrefix[version] + name });
