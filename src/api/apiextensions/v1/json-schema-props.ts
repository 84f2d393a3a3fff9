// apiextensions.k8s.io/v1 JSONSchemaProps (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/
// types_jsonschema.go): the OpenAPI v3 schema of a custom resource. It refers to itself; the
// structural compiler ends a recursive reference in the node being built and the OpenAPI documents
// keep it a $ref. JSON, JSONSchemaPropsOrArray/OrBool/OrStringArray are untyped: any JSON value.
import type { APIModule } from '../../schema/api-module.js';
import { atomicList, bool, float64, int64, mapList, mapOf, ref, str, struct } from '../../schema/builders.js';
import type { Schema } from '../../schema/types.js';

/** Definition names of k8s.io/apiextensions-apiserver's v1 package as kube's OpenAPI spells them. */
export const apiextensionsDef = (name: string): string =>
  `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.${name}`;

export const JSON_SCHEMA_PROPS = apiextensionsDef('JSONSchemaProps');
const JSON_VALUE = apiextensionsDef('JSON');
const PROPS_OR_ARRAY = apiextensionsDef('JSONSchemaPropsOrArray');
const PROPS_OR_BOOL = apiextensionsDef('JSONSchemaPropsOrBool');
const PROPS_OR_STRING_ARRAY = apiextensionsDef('JSONSchemaPropsOrStringArray');
const EXTERNAL_DOCUMENTATION = apiextensionsDef('ExternalDocumentation');
const VALIDATION_RULE = apiextensionsDef('ValidationRule');

/** A schema node as JSON: every field optional, nested schemas of the same shape. */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema, or (refused by validation) an array of schemas. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  /** A schema, or a bool allowing (true) or forbidding (false) other properties. */
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

const props = (description?: string): Schema => ref(JSON_SCHEMA_PROPS, description);
const propsList = (description: string): Schema =>
  atomicList(ref(JSON_SCHEMA_PROPS, undefined, { default: {} }), description);
const propsMap = (description: string): Schema =>
  mapOf(ref(JSON_SCHEMA_PROPS, undefined, { default: {} }), description);
const anyJSON = (name: string, description: string): Schema => ({ description: `${name}: ${description}` });

export const jsonSchemaPropsModule: APIModule = {
  definitions: {
    [JSON_VALUE]: anyJSON('JSON', 'any valid JSON value.'),
    [PROPS_OR_ARRAY]: anyJSON('JSONSchemaPropsOrArray', 'a schema or an array of schemas.'),
    [PROPS_OR_BOOL]: anyJSON('JSONSchemaPropsOrBool', 'a schema or a boolean.'),
    [PROPS_OR_STRING_ARRAY]: anyJSON('JSONSchemaPropsOrStringArray', 'a schema or an array of strings.'),
    [EXTERNAL_DOCUMENTATION]: struct('Where more documentation lives.', {
      description: str(),
      url: str(),
    }),
    [VALIDATION_RULE]: struct(
      'A CEL rule the values of a schema node must satisfy.',
      {
        fieldPath: str('The field the failure is reported at, relative to this node.'),
        message: str('The message returned when the rule is false.'),
        messageExpression: str('A CEL expression producing the message.'),
        optionalOldSelf: bool('Evaluates the rule on create too, with oldSelf unset.'),
        reason: str('FieldValueInvalid, FieldValueForbidden, FieldValueRequired or FieldValueDuplicate.'),
        rule: str('The CEL expression.'),
      },
      { required: ['rule'] },
    ),
    [JSON_SCHEMA_PROPS]: struct('A JSON-Schema following Specification Draft 4.', {
      $ref: str(),
      $schema: str(),
      additionalItems: ref(PROPS_OR_BOOL),
      additionalProperties: ref(PROPS_OR_BOOL),
      allOf: propsList('All of these schemas must match.'),
      anyOf: propsList('At least one of these schemas must match.'),
      default: ref(JSON_VALUE, 'The value defaulted when the field is absent.'),
      definitions: propsMap('Named schemas (not supported in CRDs).'),
      dependencies: mapOf(ref(PROPS_OR_STRING_ARRAY), 'Property dependencies (not supported in CRDs).'),
      description: str(),
      enum: atomicList(ref(JSON_VALUE), 'The allowed values.'),
      example: ref(JSON_VALUE),
      exclusiveMaximum: bool(),
      exclusiveMinimum: bool(),
      externalDocs: ref(EXTERNAL_DOCUMENTATION),
      format: str('The format of strings and numbers: int32, date-time, …'),
      id: str(),
      items: ref(PROPS_OR_ARRAY),
      maxItems: int64(),
      maxLength: int64(),
      maxProperties: int64(),
      maximum: float64(),
      minItems: int64(),
      minLength: int64(),
      minProperties: int64(),
      minimum: float64(),
      multipleOf: float64(),
      not: props(),
      nullable: bool(),
      oneOf: propsList('Exactly one of these schemas must match.'),
      pattern: str(),
      patternProperties: propsMap('Schemas of properties whose names match a pattern.'),
      properties: propsMap('The schemas of the properties.'),
      required: atomicList({ type: 'string' }, 'Properties that must be present.'),
      title: str(),
      type: str('object, array, string, integer, number or boolean.'),
      uniqueItems: bool(),
      'x-kubernetes-embedded-resource': bool(
        'The value is a whole object with apiVersion, kind and metadata.',
      ),
      'x-kubernetes-int-or-string': bool('The value is an integer or a string.'),
      'x-kubernetes-list-map-keys': atomicList({ type: 'string' }, 'The keys of a map list.'),
      'x-kubernetes-list-type': str('atomic, set or map.'),
      'x-kubernetes-map-type': str('granular or atomic.'),
      'x-kubernetes-preserve-unknown-fields': bool('Fields the schema does not name are kept.'),
      'x-kubernetes-validations': mapList(
        ref(VALIDATION_RULE, undefined, { default: {} }),
        'rule',
        'CEL rules the value must satisfy.',
      ),
    }),
  },
  goTypes: { [VALIDATION_RULE]: { reason: 'v1.FieldValueErrorReason' } },
};
