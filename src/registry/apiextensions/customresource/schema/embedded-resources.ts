// The type and object metadata of every x-kubernetes-embedded-resource value in a custom resource,
// as apiextensions-apiserver pkg/apiserver/schema/objectmeta/validation.go (Validate, with
// isResourceRoot false, as the CR strategies call it on create and on every main-resource update,
// unratcheted): apiVersion and kind required and well formed, metadata checked as ObjectMeta with
// path-segment names and a namespace only when one is given. The walk follows the schema as kube's
// does (properties, else additionalProperties; items) but skips branches that hold no embedded
// resource, which reports the same errors. Go visits map keys in random order; this takes the
// object's own order.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import type { ObjectMeta } from '../../../../api/meta.js';
import { jsonValueKind } from '../../../../machinery/structural/go-errors.js';
import {
  childOf,
  FieldError,
  FieldPath,
  isDNS1035Label,
  validateObjectMeta,
  validatePathSegmentName,
  type ErrorList,
} from '../../../../machinery/validation/index.js';
import {
  additionalSchema,
  anywhereInSchema,
  isJSONObject,
  itemsSchema,
  propertyOf,
  type JSONObject,
} from './json-value.js';

/** Whether a schema is, or has below it, an x-kubernetes-embedded-resource (most have none). */
export const holdsEmbeddedResource = anywhereInSchema((s) => s['x-kubernetes-embedded-resource'] === true);

// field.Path's Index and Key; below a nil root (kube's pth) the subscript itself starts the path.
const indexOf = (path: FieldPath | undefined, i: number): FieldPath =>
  path === undefined ? FieldPath.of(`[${String(i)}]`) : path.index(i);
const keyOf = (path: FieldPath | undefined, k: string): FieldPath =>
  path === undefined ? FieldPath.of(`[${k}]`) : path.key(k);

const mustNotBeEmpty = 'must not be empty';
const mustBeAString = 'must be a string';

function validateAPIVersion(v: unknown, path: FieldPath): ErrorList {
  if (typeof v !== 'string') return [FieldError.invalid(path, v, mustBeAString)];
  if (v === '') return [FieldError.invalid(path, v, mustNotBeEmpty)];
  // schema.ParseGroupVersion takes `version`, `group/version` and `/`.
  if (v.split('/').length > 2) return [FieldError.invalid(path, v, `unexpected GroupVersion string: ${v}`)];
  return [];
}

function validateKind(v: unknown, path: FieldPath): ErrorList {
  if (typeof v !== 'string') return [FieldError.invalid(path, v, mustBeAString)];
  if (v === '') return [FieldError.invalid(path, v, mustNotBeEmpty)];
  const msgs = isDNS1035Label(v.toLowerCase());
  if (msgs.length === 0) return [];
  return [FieldError.invalid(path, v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`)];
}

// The decoder has dropped the fields of an object metadata that do not decode into ObjectMeta; a
// null decodes as an empty one, and anything but an object fails as Go's json.Unmarshal does.
function validateMetadata(v: unknown, path: FieldPath): ErrorList {
  if (v === null) return [];
  if (!isJSONObject(v)) {
    const detail = `json: cannot unmarshal ${jsonValueKind(v)} into Go value of type v1.ObjectMeta`;
    return [FieldError.invalid(path, v, detail)];
  }
  const meta = v as ObjectMeta;
  const namespace = meta.namespace ?? '';
  // kube stands a name in for a missing one, so only a given name is judged.
  const name = meta.name === undefined || meta.name === '' ? 'fakename' : meta.name;
  return validateObjectMeta(
    { ...meta, name },
    { requiresNamespace: namespace !== '', validateName: validatePathSegmentName, path },
  );
}

function validateEmbeddedResource(x: JSONObject, path: FieldPath | undefined): ErrorList {
  const errs: ErrorList = [];
  // apiVersion and kind are required, metadata is not.
  if (!Object.hasOwn(x, 'apiVersion'))
    errs.push(FieldError.required(childOf(path, 'apiVersion'), mustNotBeEmpty));
  if (!Object.hasOwn(x, 'kind')) errs.push(FieldError.required(childOf(path, 'kind'), mustNotBeEmpty));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') errs.push(...validateAPIVersion(v, childOf(path, k)));
    else if (k === 'kind') errs.push(...validateKind(v, childOf(path, k)));
    else if (k === 'metadata') errs.push(...validateMetadata(v, childOf(path, k)));
  }
  return errs;
}

function validateValue(
  x: unknown,
  s: JSONSchemaProps | undefined,
  at: { readonly path: FieldPath | undefined; readonly errs: ErrorList },
): void {
  if (s === undefined || !holdsEmbeddedResource(s)) return;
  const { path, errs } = at;
  if (Array.isArray(x)) {
    const items = itemsSchema(s.items);
    x.forEach((v, i) => {
      validateValue(v, items, { path: indexOf(path, i), errs });
    });
    return;
  }
  if (!isJSONObject(x)) return;
  if (s['x-kubernetes-embedded-resource'] === true) errs.push(...validateEmbeddedResource(x, path));
  const additional = additionalSchema(s.additionalProperties);
  for (const [k, v] of Object.entries(x)) {
    const prop = propertyOf(s, k);
    if (prop !== undefined) validateValue(v, prop, { path: childOf(path, k), errs });
    else if (additional !== undefined) validateValue(v, additional, { path: keyOf(path, k), errs });
  }
}

/** Checks the embedded resources of a custom resource (kube's schemaobjectmeta.Validate). */
export type EmbeddedResourceValidator = (obj: JSONObject) => ErrorList;

/**
 * The embedded-resource check for a version's schema, or undefined when the schema has no
 * x-kubernetes-embedded-resource anywhere, so that such a version pays nothing per request.
 */
export function embeddedResourceValidator(schema: JSONSchemaProps): EmbeddedResourceValidator | undefined {
  if (!holdsEmbeddedResource(schema)) return undefined;
  return (obj) => {
    const errs: ErrorList = [];
    validateValue(obj, schema, { path: undefined, errs });
    return errs;
  };
}
