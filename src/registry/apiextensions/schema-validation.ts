// A CRD's openAPIV3Schema checks: the OpenAPI subset CRDs allow (ValidateCustomResourceDefinitionOpenAPISchema
// and specStandardValidatorV3 in apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go)
// and the structural invariants (ValidateStructural in pkg/apiserver/schema/validation.go). Not done:
// the completeness check of value validations, defaults pruning/validation. CEL rules are compiled
// by validation.ts through customresource/cel.
import type { JSONSchemaProps } from '../../api/apiextensions/v1/json-schema-props.js';
import { FieldError, type ErrorList, type FieldPath } from '../../machinery/validation/index.js';
import { validFieldPath } from './customresource/cel/field-path.js';

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const metaFields = new Set(['apiVersion', 'kind', 'metadata']);
const isObject = (v: unknown): v is JSONSchemaProps =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const sortedEntries = <T>(m: Record<string, T> | undefined): [string, T][] =>
  Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);
const validationReasons = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
];

interface WalkOptions {
  readonly isRoot: boolean;
  readonly insideResourceMeta: boolean;
}

/** specStandardValidatorV3.validate: what OpenAPI v3 features CRD schemas refuse. */
function validateNode(s: JSONSchemaProps, path: FieldPath, opts: WalkOptions): ErrorList {
  const errs: ErrorList = [];
  const type = s.type ?? '';
  if (type !== '' && !openapiV3Types.includes(type))
    errs.push(FieldError.notSupported(path.child('type'), type, openapiV3Types));
  if (s.id !== undefined && s.id !== '')
    errs.push(FieldError.forbidden(path.child('id'), 'id is not supported'));
  if (s.additionalItems !== undefined)
    errs.push(FieldError.forbidden(path.child('additionalItems'), 'additionalItems is not supported'));
  if (Object.keys(s.patternProperties ?? {}).length > 0)
    errs.push(FieldError.forbidden(path.child('patternProperties'), 'patternProperties is not supported'));
  if (Object.keys(s.definitions ?? {}).length > 0)
    errs.push(FieldError.forbidden(path.child('definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined)
    errs.push(FieldError.forbidden(path.child('dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(FieldError.forbidden(path.child('$ref'), '$ref is not supported'));
  if (type === 'null')
    errs.push(
      FieldError.forbidden(path.child('type'), 'type cannot be set to null, use nullable as an alternative'),
    );
  if (Array.isArray(s.items) && s.items.length > 0)
    errs.push(FieldError.forbidden(path.child('items'), 'items must be a schema object and not an array'));
  if (opts.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true)
    errs.push(
      FieldError.forbidden(
        path.child('x-kubernetes-embedded-resource'),
        'must not be used inside of resource meta',
      ),
    );
  return errs;
}

/** The x-kubernetes-list-type / map-type / list-map-keys rules of one node. */
function validateListAndMapTypes(s: JSONSchemaProps, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const type = s.type ?? '';
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined && type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified';
    errs.push(
      type === ''
        ? FieldError.required(path.child('type'), detail)
        : FieldError.invalid(path.child('type'), type, detail),
    );
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular')
    errs.push(FieldError.notSupported(path.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  const listType = s['x-kubernetes-list-type'];
  if (listType !== undefined && type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    errs.push(
      type === ''
        ? FieldError.required(path.child('type'), detail)
        : FieldError.invalid(path.child('type'), type, detail),
    );
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType))
    errs.push(
      FieldError.notSupported(path.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']),
    );
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  if (keys.length > 0) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined) errs.push(FieldError.required(path.child('x-kubernetes-list-type'), detail));
    else if (listType !== 'map')
      errs.push(FieldError.invalid(path.child('x-kubernetes-list-type'), listType, detail));
  }
  if (listType === 'map') {
    if (keys.length === 0)
      errs.push(
        FieldError.required(
          path.child('x-kubernetes-list-map-keys'),
          'must not be empty if x-kubernetes-list-type is map',
        ),
      );
    const items = s.items;
    if (items === undefined)
      errs.push(
        FieldError.required(path.child('items'), 'must have a schema if x-kubernetes-list-type is map'),
      );
    else if (isObject(items)) {
      if (items.type !== 'object')
        errs.push(
          FieldError.invalid(
            path.child('items').child('type'),
            items.type ?? '',
            "must be object if parent array's x-kubernetes-list-type is map",
          ),
        );
      else
        for (const k of keys) {
          const prop = items.properties?.[k];
          if (prop === undefined)
            errs.push(
              FieldError.invalid(
                path.child('x-kubernetes-list-map-keys'),
                keys,
                'entries must all be names of item properties',
              ),
            );
          else if (prop.type === 'array' || prop.type === 'object')
            errs.push(
              FieldError.invalid(
                path.child('items').child('properties').key(k).child('type'),
                items.type,
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            );
        }
    }
  }
  return errs;
}

/** x-kubernetes-validations: present rules, messages without line breaks, known reasons, valid field paths. */
function validateRules(s: JSONSchemaProps, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const at = path.child('x-kubernetes-validations').index(i);
    const text = ((rule.rule as string | undefined) ?? '').trim();
    const message = rule.message ?? '';
    if (text === '') errs.push(FieldError.required(at.child('rule'), 'rule is not specified'));
    else if (message !== '' && message.trim() === '')
      errs.push(FieldError.invalid(at.child('message'), message, 'message must be non-empty if specified'));
    else if (hasNewlines(message.trim()))
      errs.push(FieldError.invalid(at.child('message'), message, 'message must not contain line breaks'));
    else if (hasNewlines(text) && message.trim() === '')
      errs.push(
        FieldError.required(at.child('message'), 'message must be specified if rule contains line breaks'),
      );
    const messageExpression = rule.messageExpression ?? '';
    if (messageExpression !== '' && messageExpression.trim() === '')
      errs.push(
        FieldError.required(
          at.child('messageExpression'),
          'messageExpression must be non-empty if specified',
        ),
      );
    if (rule.reason !== undefined && !validationReasons.includes(rule.reason))
      errs.push(FieldError.notSupported(at.child('reason'), rule.reason, validationReasons));
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath !== '' && fieldPath.trim() === '')
      errs.push(
        FieldError.invalid(at.child('fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'),
      );
    if (hasNewlines(fieldPath))
      errs.push(
        FieldError.invalid(at.child('fieldPath'), fieldPath, 'fieldPath must not contain line breaks'),
      );
    if (fieldPath !== '' && validFieldPath(fieldPath, s) === undefined)
      errs.push(FieldError.invalid(at.child('fieldPath'), fieldPath, 'fieldPath must be a valid path'));
  });
  return errs;
}

/** ValidateCustomResourceDefinitionOpenAPISchema, recursively (property keys visited sorted). */
export function validateOpenAPISchema(s: JSONSchemaProps, path: FieldPath, opts: WalkOptions): ErrorList {
  const errs = validateNode(s, path, opts);
  if (s.uniqueItems === true)
    errs.push(
      FieldError.forbidden(
        path.child('uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  const child = { isRoot: false, insideResourceMeta: opts.insideResourceMeta };
  const additional = s.additionalProperties;
  if (additional !== undefined) {
    if (Object.keys(s.properties ?? {}).length > 0 && (additional === false || isObject(additional)))
      errs.push(
        FieldError.forbidden(
          path.child('additionalProperties'),
          'additionalProperties and properties are mutual exclusive',
        ),
      );
    if (isObject(additional))
      errs.push(...validateOpenAPISchema(additional, path.child('additionalProperties'), child));
  }
  for (const [name, prop] of sortedEntries(s.properties)) {
    const meta = (opts.isRoot || s['x-kubernetes-embedded-resource'] === true) && metaFields.has(name);
    errs.push(
      ...validateOpenAPISchema(prop, path.child('properties').key(name), {
        isRoot: false,
        insideResourceMeta: opts.insideResourceMeta || meta,
      }),
    );
  }
  if (s.not !== undefined) errs.push(...validateOpenAPISchema(s.not, path.child('not'), child));
  for (const junctor of ['allOf', 'oneOf', 'anyOf'] as const)
    (s[junctor] ?? []).forEach((sub, i) => {
      errs.push(...validateOpenAPISchema(sub, path.child(junctor).index(i), child));
    });
  if (isObject(s.items)) errs.push(...validateOpenAPISchema(s.items, path.child('items'), child));
  else if (Array.isArray(s.items))
    s.items.forEach((sub, i) => {
      errs.push(...validateOpenAPISchema(sub, path.child('items').index(i), child));
    });
  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    errs.push(
      FieldError.invalid(
        path.child('x-kubernetes-preserve-unknown-fields'),
        false,
        'must be true or undefined',
      ),
    );
  errs.push(...validateListAndMapTypes(s, path), ...validateRules(s, path));
  return errs;
}
