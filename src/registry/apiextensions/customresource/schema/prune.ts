// Pruning of the fields a structural schema does not specify, as
// apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go followed by the metadata part of
// pkg/apiserver/schema/objectmeta/coerce.go (the order customresource_handler.go applies them in).
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { compareGoStrings } from '../../../../machinery/validation/index.js';
import {
  additionalSchema,
  anywhereInSchema,
  belowSchema,
  isJSONObject,
  itemsSchema,
  propertyOf,
} from './json-value.js';
import { pruneObjectMetaUnknownFields } from './object-meta-fields.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

// The path to the current node in kube's unknown-field notation: `a.b[0].c`.
function appendKey(parent: string, key: string): string {
  return parent.length > 0 ? `${parent}.${key}` : key;
}

function appendIndex(parent: string, index: number): string {
  return `${parent}[${String(index)}]`;
}

// Where the walk is and where it records what it finds.
interface At {
  readonly path: string;
  readonly found: string[];
}

const atKey = (at: At, key: string): At => ({ path: appendKey(at.path, key), found: at.found });
const atIndex = (at: At, i: number): At => ({ path: appendIndex(at.path, i), found: at.found });

// additionalProperties: a schema is walked; `true` has no schema (kube's StructOrBool without
// Structural), so the values are kept but pruned against no schema, as kube does.
function additionalOf(s: JSONSchemaProps): { present: boolean; schema: JSONSchemaProps | undefined } {
  const ap = s.additionalProperties;
  if (ap === undefined || ap === false) return { present: false, schema: undefined };
  return { present: true, schema: additionalSchema(ap) };
}

function pruneValue(x: unknown, s: JSONSchemaProps | undefined, at: At): void {
  if (s?.['x-kubernetes-preserve-unknown-fields'] === true) {
    skipPrune(x, s, at);
    return;
  }
  if (Array.isArray(x)) {
    const items = s === undefined ? undefined : itemsSchema(s.items);
    x.forEach((v, i) => {
      pruneValue(v, items, atIndex(at, i));
    });
    return;
  }
  if (!isJSONObject(x)) return;
  if (s === undefined) {
    for (const k of Object.keys(x)) {
      at.found.push(appendKey(at.path, k));
      Reflect.deleteProperty(x, k);
    }
    return;
  }
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const additional = additionalOf(s);
  for (const [k, v] of Object.entries(x)) {
    if (embedded && metaFields.has(k)) continue;
    const prop = propertyOf(s, k);
    if (prop !== undefined) {
      pruneValue(v, prop, atKey(at, k));
    } else if (additional.present) {
      pruneValue(v, additional.schema, atKey(at, k));
    } else {
      if (!metaFields.has(k) || at.path.length > 0) at.found.push(appendKey(at.path, k));
      Reflect.deleteProperty(x, k);
    }
  }
}

// Below x-kubernetes-preserve-unknown-fields nothing is dropped, but nodes the schema specifies are
// pruned again.
function skipPrune(x: unknown, s: JSONSchemaProps, at: At): void {
  if (Array.isArray(x)) {
    const items = itemsSchema(s.items);
    if (items === undefined) return;
    x.forEach((v, i) => {
      skipPrune(v, items, atIndex(at, i));
    });
    return;
  }
  if (!isJSONObject(x)) return;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const additional = additionalOf(s);
  for (const [k, v] of Object.entries(x)) {
    if (embedded && metaFields.has(k)) continue;
    const prop = propertyOf(s, k);
    if (prop !== undefined) pruneValue(v, prop, atKey(at, k));
    else if (additional.present) pruneValue(v, additional.schema, atKey(at, k));
  }
}

/**
 * Whether pruneValue would remove anything from `x`: the same walk, which allocates nothing, so that
 * an object with no unknown field (nearly every one a client writes) is not walked for paths.
 * skipPrunes is skipPrune's. A generated-input test holds the verdict to pruneValue's.
 */
export function prunes(x: unknown, s: JSONSchemaProps | undefined): boolean {
  if (s?.['x-kubernetes-preserve-unknown-fields'] === true) return skipPrunes(x, s);
  if (Array.isArray(x)) {
    const items = s === undefined ? undefined : itemsSchema(s.items);
    return x.some((v) => prunes(v, items));
  }
  if (!isJSONObject(x)) return false;
  if (s === undefined) {
    for (const k in x) if (Object.hasOwn(x, k)) return true;
    return false;
  }
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const additional = additionalOf(s);
  for (const k in x) {
    if (!Object.hasOwn(x, k) || (embedded && metaFields.has(k))) continue;
    const prop = propertyOf(s, k);
    if (prop === undefined && !additional.present) return true;
    if (prunes(x[k], prop ?? additional.schema)) return true;
  }
  return false;
}

function skipPrunes(x: unknown, s: JSONSchemaProps): boolean {
  if (Array.isArray(x)) {
    const items = itemsSchema(s.items);
    return items !== undefined && x.some((v) => skipPrunes(v, items));
  }
  if (!isJSONObject(x)) return false;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const additional = additionalOf(s);
  for (const k in x) {
    if (!Object.hasOwn(x, k) || (embedded && metaFields.has(k))) continue;
    const prop = propertyOf(s, k);
    if (prop !== undefined ? prunes(x[k], prop) : additional.present && prunes(x[k], additional.schema))
      return true;
  }
  return false;
}

/**
 * Removes, in place, what `s` does not specify in `x` (the pruning walk alone, without the metadata of
 * embedded resources); returns the paths it reported, in the order found.
 */
export function prunedPaths(x: unknown, s: JSONSchemaProps): string[] {
  const at: At = { path: '', found: [] };
  pruneValue(x, s, at);
  return at.found;
}

// Whether a schema is, or has below it, an embedded resource (most have none).
const holdsEmbedded = anywhereInSchema((s) => s['x-kubernetes-embedded-resource'] === true);

// The metadata of every embedded resource below the root, with field.Path notation for its prefix
// (properties `.name`, additionalProperties `[key]`, items `[i]`), as Coerce walks them.
function pruneEmbeddedMetadata(x: unknown, s: JSONSchemaProps | undefined, at: At): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsSchema(s.items);
    x.forEach((v, i) => {
      pruneEmbeddedMetadata(v, items, atIndex(at, i));
    });
    return;
  }
  if (!isJSONObject(x)) return;
  if (s['x-kubernetes-embedded-resource'] === true) {
    // Coerce with DropInvalidFields: an apiVersion or kind that is not a string goes, and
    // validation then finds it missing.
    for (const k of ['apiVersion', 'kind'])
      if (Object.hasOwn(x, k) && typeof x[k] !== 'string') Reflect.deleteProperty(x, k);
    at.found.push(...pruneObjectMetaUnknownFields(x, at.path.length > 0 ? `${at.path}.` : ''));
  }
  const additional = additionalSchema(s.additionalProperties);
  for (const [k, v] of Object.entries(x)) {
    const prop = propertyOf(s, k);
    if (prop !== undefined) pruneEmbeddedMetadata(v, prop, atKey(at, k));
    else if (additional !== undefined) {
      pruneEmbeddedMetadata(v, additional, { path: `${at.path}[${k}]`, found: at.found });
    }
  }
}

/**
 * Removes, in place, every field of a custom resource that its structural schema does not specify and
 * returns the removed paths as kube reports them for fieldValidation: first the unknown fields of the
 * root `metadata` (when `isResourceRoot`), then the pruned paths sorted, then unknown fields in the
 * metadata of embedded resources sorted. At the root, and in every `x-kubernetes-embedded-resource`,
 * apiVersion, kind and metadata are kept; metadata is reduced to ObjectMeta's fields.
 */
export function pruneUnknownFields(
  obj: Record<string, unknown>,
  schema: JSONSchemaProps,
  opts: { isResourceRoot: boolean },
): string[] {
  const root: JSONSchemaProps = opts.isResourceRoot
    ? { ...schema, 'x-kubernetes-embedded-resource': true }
    : schema;
  const rootMeta = opts.isResourceRoot ? pruneObjectMetaUnknownFields(obj, '') : [];
  const pruned = prunes(obj, root) ? prunedPaths(obj, root) : [];
  const embedded: string[] = [];
  // The root's own metadata was handled above; Coerce runs with isResourceRoot=false.
  const coerceRoot = opts.isResourceRoot ? { ...schema, 'x-kubernetes-embedded-resource': false } : schema;
  const embeddedAtRoot = coerceRoot['x-kubernetes-embedded-resource'] === true;
  if (embeddedAtRoot || belowSchema(schema, holdsEmbedded))
    pruneEmbeddedMetadata(obj, coerceRoot, { path: '', found: embedded });
  return [...rootMeta, ...pruned.sort(compareGoStrings), ...embedded.sort(compareGoStrings)];
}
