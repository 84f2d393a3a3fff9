// Structural schema invariants (apiextensions-apiserver/pkg/apiserver/schema/validation.go,
// ValidateStructural): every specified node has a type (unless int-or-string or
// preserve-unknown-fields), the root is an object, metadata only restricts name and generateName,
// and value validations (allOf/anyOf/oneOf/not) hold no structural fields. Errors sort as kube's.
import type { JSONSchemaProps } from '../../api/apiextensions/v1/json-schema-props.js';
import { FieldError, type ErrorList, type FieldPath } from '../../machinery/validation/index.js';
import { schemaPattern } from './customresource/schema/schema-pattern.js';

type Level = 'root' | 'item' | 'field';
const isObject = (v: unknown): v is JSONSchemaProps =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** anyOf: [{type: integer}, {type: string}], the int-or-string pattern. */
function isIntOrStringAnyOf(anyOf: readonly JSONSchemaProps[] | undefined): boolean {
  if (anyOf?.length !== 2) return false;
  const [a, b] = anyOf;
  const only = (s: JSONSchemaProps | undefined, type: string): boolean =>
    s !== undefined && Object.keys(s).length === 1 && s.type === type;
  return only(a, 'integer') && only(b, 'string');
}

const forbiddenInValueValidation: readonly [keyof JSONSchemaProps, string][] = [
  ['type', 'must be empty to be structural'],
  ['additionalProperties', 'must be undefined to be structural'],
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', 'must be undefined to be structural'],
  // Kube 1.31+ can evaluate rules under allOf (AllowNestedXValidations) but keeps it off for CRDs.
  ['x-kubernetes-validations', 'must be empty to be structural'],
];

function isSet(s: JSONSchemaProps, key: keyof JSONSchemaProps): boolean {
  const v = s[key];
  if (v === undefined || v === false || v === '') return false;
  return !(Array.isArray(v) && v.length === 0);
}

/** validateNestedValueValidation. */
function validateNested(v: JSONSchemaProps, opts: { skipAnyOf: boolean; path: FieldPath }): ErrorList {
  const { path } = opts;
  const errs = validateValueValidation(v, { skipAnyOf: opts.skipAnyOf, skipFirstAllOfAnyOf: false, path });
  if (isObject(v.items))
    errs.push(...validateNested(v.items, { skipAnyOf: false, path: path.child('items') }));
  for (const [k, p] of Object.entries(v.properties ?? {}))
    errs.push(...validateNested(p, { skipAnyOf: false, path: path.child('properties').key(k) }));
  for (const [key, detail] of forbiddenInValueValidation)
    if (isSet(v, key)) errs.push(FieldError.forbidden(path.child(key), detail));
  if (v.properties?.['metadata'] !== undefined)
    errs.push(
      FieldError.forbidden(
        path.child('properties').key('metadata'),
        'must not be specified in a nested context',
      ),
    );
  return errs;
}

/** validateValueValidation: the junctors of one node. */
function validateValueValidation(
  s: JSONSchemaProps,
  opts: { skipAnyOf: boolean; skipFirstAllOfAnyOf: boolean; path: FieldPath },
): ErrorList {
  const { path } = opts;
  const errs: ErrorList = [];
  if (!opts.skipAnyOf)
    (s.anyOf ?? []).forEach((a, i) => {
      errs.push(...validateNested(a, { skipAnyOf: false, path: path.child('anyOf').index(i) }));
    });
  (s.allOf ?? []).forEach((a, i) => {
    errs.push(
      ...validateNested(a, {
        skipAnyOf: opts.skipFirstAllOfAnyOf && i === 0,
        path: path.child('allOf').index(i),
      }),
    );
  });
  (s.oneOf ?? []).forEach((a, i) => {
    errs.push(...validateNested(a, { skipAnyOf: false, path: path.child('oneOf').index(i) }));
  });
  if (s.not !== undefined) errs.push(...validateNested(s.not, { skipAnyOf: false, path: path.child('not') }));
  if (s.pattern !== undefined && s.pattern !== '') {
    const re = schemaPattern(s, s.pattern);
    if (typeof re === 'string')
      errs.push(
        FieldError.invalid(
          path.child('pattern'),
          s.pattern,
          `must be a valid regular expression, but isn't: ${re}`,
        ),
      );
  }
  return errs;
}

const emptyTypeDetail: Readonly<Record<Level, string>> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/** The metadata schema at the root may only name `name` and `generateName` (as strings). */
function restrictsMoreThanNames(metadata: JSONSchemaProps): boolean {
  const rest: Record<string, unknown> = { ...metadata };
  delete rest.type;
  delete rest.default;
  const names = Object.keys(metadata.properties ?? {});
  if (names.length > 0 && names.every((n) => n === 'name' || n === 'generateName')) delete rest.properties;
  return Object.values(rest).some((v) => v !== undefined);
}

/** validateStructuralInvariants. */
function validateInvariants(s: JSONSchemaProps, lvl: Level, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const type = s.type ?? '';
  const items = s.items;
  if (type === 'array' && items === undefined)
    errs.push(FieldError.required(path.child('items'), 'must be specified'));
  if (isObject(items)) errs.push(...validateInvariants(items, 'item', path.child('items')));
  for (const [k, p] of Object.entries(s.properties ?? {}))
    errs.push(...validateInvariants(p, 'field', path.child('properties').key(k)));
  const additional = s.additionalProperties;
  if (additional !== undefined) {
    if (lvl === 'root')
      errs.push(FieldError.forbidden(path.child('additionalProperties'), 'must not be used at the root'));
    if (isObject(additional))
      errs.push(...validateInvariants(additional, 'field', path.child('additionalProperties')));
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve)
    errs.push(
      FieldError.invalid(
        path.child('x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  if (intOrString && embedded)
    errs.push(
      FieldError.invalid(
        path.child('x-kubernetes-embedded-resource'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  errs.push(
    ...validateValueValidation(s, {
      skipAnyOf: isIntOrStringAnyOf(s.anyOf),
      skipFirstAllOfAnyOf: isIntOrStringAnyOf(s.allOf?.[0]?.anyOf),
      path,
    }),
  );
  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(
      type === ''
        ? FieldError.required(path.child('type'), detail)
        : FieldError.invalid(path.child('type'), type, detail),
    );
  } else if (type === '' && !intOrString && !preserve) {
    errs.push(FieldError.required(path.child('type'), emptyTypeDetail[lvl]));
  }
  if (embedded && additional !== undefined)
    errs.push(
      FieldError.forbidden(
        path.child('additionalProperties'),
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    );
  if (lvl === 'root' && type !== '' && type !== 'object')
    errs.push(FieldError.invalid(path.child('type'), type, 'must be object at the root'));
  const props = s.properties ?? {};
  const propType = (name: string): string => props[name]?.type ?? '';
  if (checkMetadata && props['kind'] !== undefined && propType('kind') !== 'string')
    errs.push(
      FieldError.invalid(
        path.child('properties').key('kind').child('type'),
        propType('kind'),
        'must be string',
      ),
    );
  if (checkMetadata && props['apiVersion'] !== undefined && propType('apiVersion') !== 'string')
    errs.push(
      FieldError.invalid(
        path.child('properties').key('apiVersion').child('type'),
        propType('apiVersion'),
        'must be string',
      ),
    );
  const metadata = props['metadata'];
  if (checkMetadata && metadata !== undefined && propType('metadata') !== 'object')
    errs.push(
      FieldError.invalid(
        path.child('properties').key('metadata').child('type'),
        propType('metadata'),
        'must be object',
      ),
    );
  if (lvl === 'root' && metadata !== undefined && restrictsMoreThanNames(metadata))
    errs.push(
      FieldError.forbidden(
        path.child('properties').key('metadata'),
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    );
  if (embedded && !preserve && Object.keys(props).length === 0)
    errs.push(
      FieldError.required(
        path.child('properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  return errs;
}

/** ValidateStructural, errors sorted by their text as kube sorts them. */
export function validateStructural(s: JSONSchemaProps, path: FieldPath): ErrorList {
  const errs = validateInvariants(s, 'root', path);
  return errs.sort((a, b) => (a.error() < b.error() ? -1 : a.error() > b.error() ? 1 : 0));
}
