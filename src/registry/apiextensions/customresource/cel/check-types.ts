// The types the static check (check.ts) infers: CEL's scalar kinds, optionals, and the structural
// schema nodes rules are typed by (model.SchemaDeclType).
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';

export const scalarKinds = [
  'bool',
  'int',
  'uint',
  'double',
  'string',
  'bytes',
  'null',
  'list',
  'map',
  'dyn',
  'type',
  'timestamp',
  'duration',
] as const;
export type ScalarKind = (typeof scalarKinds)[number];
export type CelT =
  | { readonly kind: 'schema'; readonly schema: JSONSchemaProps }
  | { readonly kind: 'optional'; readonly inner: CelT }
  | { readonly kind: ScalarKind };

export const t = (kind: ScalarKind): CelT => ({ kind });
/** cel-go's optional_type(T). */
export const optionalOf = (inner: CelT): CelT => ({ kind: 'optional', inner });
export const innerOf = (type: CelT | undefined): CelT | undefined =>
  type?.kind === 'optional' ? type.inner : undefined;
/** The CEL type of a string of the format: some are timestamps, durations or bytes to rules. */
function stringType(format: string | undefined): CelT {
  switch (format) {
    case 'date':
    case 'date-time':
      return t('timestamp');
    case 'duration':
      return t('duration');
    case 'byte':
      return t('bytes');
    case undefined:
    default:
      return t('string');
  }
}

/** The CEL type a schema node has (model.SchemaDeclType). */
export function schemaType(s: JSONSchemaProps | undefined): CelT {
  if (s === undefined || s['x-kubernetes-int-or-string'] === true) return t('dyn');
  switch (s.type) {
    case 'object':
      return s.properties !== undefined || typeof s.additionalProperties === 'object'
        ? { kind: 'schema', schema: s }
        : t('map');
    case 'array':
      return { kind: 'schema', schema: s };
    case 'string':
      return stringType(s.format);
    case 'integer':
      return t('int');
    case 'number':
      return t('double');
    case 'boolean':
      return t('bool');
    case undefined:
    default:
      return t('dyn');
  }
}
