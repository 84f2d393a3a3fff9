// The member order kube-apiserver writes its OpenAPI documents in. kube-openapi 1.33 marshals its
// spec types (pkg/validation/spec for v2 and schemas, pkg/spec3 for v3) with the vendored
// go-json-experiment encoder, deterministic: each type's MarshalNextJSON lists its members in its
// Props structs' field order, a schema's `$schema` and `$ref` after the others; maps (paths,
// definitions, properties, content, and any JSON a default, enum or extension holds) have their
// keys sorted; extensions (`x-…`), an inlined map, come after every named member, sorted. A
// Responses object writes `default` first, then its status codes and extensions sorted. A schema's
// omitempty members that encode empty (`"properties":{}`) are left out. Documents are put in this
// order once, when built.
import { compareGoKeys, inSortedMemberOrder } from '../../machinery/json/sorted-members.js';

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const shapeNames = [
  'swagger',
  'openapi',
  'info',
  'pathItem',
  'operation',
  'parameter',
  'responses',
  'response',
  'schema',
  'items',
  'securityScheme',
  'path3',
  'operation3',
  'parameter3',
  'requestBody3',
  'mediaType3',
  'responses3',
  'response3',
  'components3',
  'securityScheme3',
] as const;
type ShapeName = (typeof shapeNames)[number];

/**
 * How a member's value is ordered: as a shape, a map or a list of one, a schema or a list of them
 * (SchemaOrArray), a schema or a boolean (SchemaOrBool), or as any JSON (maps sorted throughout).
 */
type Child = ShapeName | `map:${ShapeName}` | `list:${ShapeName}` | 'json';

interface Shape {
  /** Named members in the order written; any other member follows, sorted. */
  readonly order: readonly string[];
  readonly children: Readonly<Record<string, Child>>;
  /** How the members outside `order` are ordered (extensions: any JSON). */
  readonly others?: Child;
  /**
   * Members tagged omitempty, which the encoder leaves out when they encode as an empty JSON
   * value (`""`, `[]`, `{}`, null: go-json-experiment's omitempty), a schema's `"properties":{}`.
   */
  readonly omitEmpty?: ReadonlySet<string>;
}

const verbs = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
const commonValidations = [
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
];
const simpleSchema = ['type', 'nullable', 'format', 'items', 'collectionFormat', 'default', 'example'];
const jsonValues: Readonly<Record<string, Child>> = { default: 'json', example: 'json', enum: 'json' };

const isEmptyJSON = (v: unknown): boolean =>
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (isObject(v) && Object.keys(v).length === 0);

const shapes: Readonly<Record<ShapeName, Shape>> = {
  // validation/spec SwaggerProps
  swagger: {
    order: [
      'id',
      'consumes',
      'produces',
      'schemes',
      'swagger',
      'info',
      'host',
      'basePath',
      'paths',
      'definitions',
      'parameters',
      'responses',
      'securityDefinitions',
      'security',
      'tags',
      'externalDocs',
    ],
    children: {
      info: 'info',
      paths: 'map:pathItem',
      definitions: 'map:schema',
      parameters: 'map:parameter',
      responses: 'map:response',
      securityDefinitions: 'map:securityScheme',
    },
  },
  // spec3 OpenAPI
  openapi: {
    order: ['openapi', 'info', 'paths', 'servers', 'components', 'security', 'externalDocs'],
    children: { info: 'info', paths: 'map:path3', components: 'components3' },
  },
  info: {
    order: ['description', 'title', 'termsOfService', 'contact', 'license', 'version'],
    children: {},
  },
  // validation/spec PathItem: $ref, PathItemProps
  pathItem: {
    order: ['$ref', ...verbs, 'parameters'],
    children: { ...Object.fromEntries(verbs.map((v) => [v, 'operation'])), parameters: 'list:parameter' },
  },
  // validation/spec OperationProps
  operation: {
    order: [
      'description',
      'consumes',
      'produces',
      'schemes',
      'tags',
      'summary',
      'externalDocs',
      'operationId',
      'deprecated',
      'security',
      'parameters',
      'responses',
    ],
    children: { parameters: 'list:parameter', responses: 'responses' },
  },
  // validation/spec Parameter: CommonValidations, SimpleSchema, ParamProps, $ref
  parameter: {
    order: [
      ...commonValidations,
      ...simpleSchema,
      'description',
      'name',
      'in',
      'required',
      'schema',
      'allowEmptyValue',
      '$ref',
    ],
    children: { ...jsonValues, items: 'items', schema: 'schema' },
  },
  responses: { order: ['default'], children: { default: 'response' }, others: 'response' },
  // validation/spec Response: $ref, ResponseProps
  response: {
    order: ['$ref', 'description', 'schema', 'headers', 'examples'],
    children: { schema: 'schema' },
  },
  // validation/spec SchemaProps, SwaggerSchemaProps, $schema, $ref
  schema: {
    order: [
      'id',
      'description',
      'type',
      'nullable',
      'format',
      'title',
      'default',
      ...commonValidations,
      'maxProperties',
      'minProperties',
      'required',
      'items',
      'allOf',
      'oneOf',
      'anyOf',
      'not',
      'properties',
      'additionalProperties',
      'patternProperties',
      'dependencies',
      'additionalItems',
      'definitions',
      'discriminator',
      'readOnly',
      'externalDocs',
      'example',
      '$schema',
      '$ref',
    ],
    children: {
      ...jsonValues,
      items: 'schema',
      allOf: 'list:schema',
      oneOf: 'list:schema',
      anyOf: 'list:schema',
      not: 'schema',
      properties: 'map:schema',
      additionalProperties: 'schema',
      patternProperties: 'map:schema',
      additionalItems: 'schema',
      definitions: 'map:schema',
    },
    // schemaPropsOmitZero and swaggerSchemaPropsOmitZero's omitempty members that may be empty.
    omitEmpty: new Set([
      'id',
      'description',
      'format',
      'title',
      'pattern',
      'enum',
      'required',
      'allOf',
      'oneOf',
      'anyOf',
      'properties',
      'patternProperties',
      'dependencies',
      'definitions',
      'discriminator',
      'example',
      '$schema',
      '$ref',
    ]),
  },
  // validation/spec Items: CommonValidations, SimpleSchema, $ref
  items: {
    order: [...commonValidations, ...simpleSchema, '$ref'],
    children: { ...jsonValues, items: 'items' },
  },
  // validation/spec SecuritySchemeProps
  securityScheme: {
    order: ['description', 'type', 'name', 'in', 'flow', 'authorizationUrl', 'tokenUrl', 'scopes'],
    children: {},
  },
  // spec3 Path: $ref, PathProps
  path3: {
    order: ['$ref', 'summary', 'description', ...verbs, 'trace', 'servers', 'parameters'],
    children: {
      ...Object.fromEntries([...verbs, 'trace'].map((v) => [v, 'operation3'])),
      parameters: 'list:parameter3',
    },
  },
  // spec3 OperationProps
  operation3: {
    order: [
      'tags',
      'summary',
      'description',
      'externalDocs',
      'operationId',
      'parameters',
      'requestBody',
      'responses',
      'deprecated',
      'security',
      'servers',
    ],
    children: { parameters: 'list:parameter3', requestBody: 'requestBody3', responses: 'responses3' },
  },
  // spec3 Parameter: $ref, ParameterProps
  parameter3: {
    order: [
      '$ref',
      'name',
      'in',
      'description',
      'required',
      'deprecated',
      'allowEmptyValue',
      'style',
      'explode',
      'allowReserved',
      'schema',
      'content',
      'example',
      'examples',
    ],
    children: { schema: 'schema', content: 'map:mediaType3', example: 'json' },
  },
  requestBody3: {
    order: ['$ref', 'description', 'content', 'required'],
    children: { content: 'map:mediaType3' },
  },
  mediaType3: {
    order: ['schema', 'example', 'examples', 'encoding'],
    children: { schema: 'schema', example: 'json' },
  },
  responses3: { order: ['default'], children: { default: 'response3' }, others: 'response3' },
  response3: {
    order: ['$ref', 'description', 'headers', 'content', 'links'],
    children: { content: 'map:mediaType3' },
  },
  // spec3 Components (no MarshalNextJSON: its fields in order)
  components3: {
    order: [
      'schemas',
      'securitySchemes',
      'responses',
      'parameters',
      'examples',
      'requestBodies',
      'links',
      'headers',
    ],
    children: {
      schemas: 'map:schema',
      securitySchemes: 'map:securityScheme3',
      responses: 'map:response3',
      parameters: 'map:parameter3',
      requestBodies: 'map:requestBody3',
    },
  },
  // spec3 SecurityScheme: $ref, SecuritySchemeProps
  securityScheme3: {
    order: [
      '$ref',
      'type',
      'description',
      'name',
      'in',
      'scheme',
      'bearerFormat',
      'flows',
      'openIdConnectUrl',
    ],
    children: {},
  },
};

/** Each shape's order as positions, for sorting members. */
const positions = new Map<ShapeName, ReadonlyMap<string, number>>(
  shapeNames.map((name) => [name, new Map(shapes[name].order.map((member, i) => [member, i]))]),
);

function orderedChild(value: unknown, child: Child): unknown {
  if (child === 'json') return inSortedMemberOrder(value);
  if (child.startsWith('map:')) {
    if (!isObject(value)) return value;
    const shape = child.slice(4) as ShapeName;
    const out: JsonObject = {};
    for (const key of Object.keys(value).sort(compareGoKeys)) out[key] = orderedShape(value[key], shape);
    return out;
  }
  if (child.startsWith('list:')) {
    const shape = child.slice(5) as ShapeName;
    return Array.isArray(value) ? value.map((item: unknown) => orderedShape(item, shape)) : value;
  }
  // A schema where a list of schemas may stand (SchemaOrArray) or a boolean (SchemaOrBool).
  if (Array.isArray(value)) return value.map((item: unknown) => orderedShape(item, child as ShapeName));
  return orderedShape(value, child as ShapeName);
}

function orderedShape(value: unknown, name: ShapeName): unknown {
  if (!isObject(value)) return value;
  const shape = shapes[name];
  const at = positions.get(name) ?? new Map<string, number>();
  const keys = Object.keys(value);
  const named = keys.filter((k) => at.has(k)).sort((a, b) => (at.get(a) as number) - (at.get(b) as number));
  const others = keys.filter((k) => !at.has(k)).sort(compareGoKeys);
  const out: JsonObject = {};
  for (const key of named) {
    if (shape.omitEmpty?.has(key) === true && isEmptyJSON(value[key])) continue;
    const child = shape.children[key];
    out[key] = child === undefined ? value[key] : orderedChild(value[key], child);
  }
  for (const key of others) out[key] = orderedChild(value[key], shape.others ?? 'json');
  return out;
}

/** A Swagger 2.0 document (`/openapi/v2`) in kube's member order; the input is not changed. */
export function inKubeSwaggerOrder(doc: unknown): unknown {
  return orderedShape(doc, 'swagger');
}

/** An OpenAPI 3.0 document (`/openapi/v3/<group-version>`) in kube's member order; the input is not changed. */
export function inKubeOpenAPIV3Order(doc: unknown): unknown {
  return orderedShape(doc, 'openapi');
}
