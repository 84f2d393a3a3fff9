// The swagger document in gnostic's protobuf model (what kube-openapi's ToProtoBinary makes of the
// JSON): maps become ordered (name, value) lists in document order, `x-` members become vendor
// extensions whose values travel as YAML text (JSON text is YAML), `type` and `items` become
// lists, and parameters, responses and security definitions pick their oneof member by kind.
// kubectl reads this document to validate what it sends (e.g. the items of a `v1 List`).
import protobuf from 'protobufjs';
import { openAPIV2Proto } from './proto-v2-schema.js';

type Msg = Record<string, unknown>;

const root = new protobuf.Root();
protobuf.parse(openAPIV2Proto, root, { keepCase: true });
root.resolveAll();
const documentType = root.lookupType('openapi.v2.Document');

const isObject = (v: unknown): v is Msg => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One JSON member to its message field: the field name and the converted value. */
type Rule = (value: unknown, c: Converter) => readonly [string, unknown];

const str =
  (field: string): Rule =>
  (v) => [field, String(v)];
const bool =
  (field: string): Rule =>
  (v) => [field, v === true];
const num =
  (field: string): Rule =>
  (v) => [field, Number(v)];
const strings =
  (field: string): Rule =>
  (v) => [field, Array.isArray(v) ? v.map(String) : [String(v)]];
const any =
  (field: string): Rule =>
  (v) => [field, toAny(v)];

/** gnostic's Any: the value as YAML text. */
function toAny(value: unknown): Msg {
  return { yaml: JSON.stringify(value) };
}

const schemaRules: Readonly<Record<string, Rule>> = {
  $ref: str('_ref'),
  format: str('format'),
  title: str('title'),
  description: str('description'),
  default: any('default'),
  multipleOf: num('multiple_of'),
  maximum: num('maximum'),
  exclusiveMaximum: bool('exclusive_maximum'),
  minimum: num('minimum'),
  exclusiveMinimum: bool('exclusive_minimum'),
  maxLength: num('max_length'),
  minLength: num('min_length'),
  pattern: str('pattern'),
  maxItems: num('max_items'),
  minItems: num('min_items'),
  uniqueItems: bool('unique_items'),
  maxProperties: num('max_properties'),
  minProperties: num('min_properties'),
  required: strings('required'),
  enum: (v) => ['enum', (Array.isArray(v) ? v : [v]).map(toAny)],
  additionalProperties: (v, c) => [
    'additional_properties',
    typeof v === 'boolean' ? { boolean: v } : { schema: c.schema(v, 'additionalProperties') },
  ],
  type: (v) => ['type', { value: Array.isArray(v) ? v.map(String) : [String(v)] }],
  items: (v, c) => ['items', { schema: (Array.isArray(v) ? v : [v]).map((s) => c.schema(s, 'items')) }],
  allOf: (v, c) => ['all_of', (Array.isArray(v) ? v : [v]).map((s) => c.schema(s, 'allOf'))],
  properties: (v, c) => ['properties', { additional_properties: c.named(v, (s, name) => c.schema(s, name)) }],
  discriminator: str('discriminator'),
  readOnly: bool('read_only'),
  example: any('example'),
};

/** Header and path parameters. */
const plainParameterRules: Readonly<Record<string, Rule>> = {
  required: bool('required'),
  in: str('in'),
  description: str('description'),
  name: str('name'),
  type: str('type'),
  format: str('format'),
  default: any('default'),
  uniqueItems: bool('unique_items'),
  enum: (v) => ['enum', (Array.isArray(v) ? v : [v]).map(toAny)],
};

/** Query and form data parameters. */
const queryParameterRules: Readonly<Record<string, Rule>> = {
  ...plainParameterRules,
  allowEmptyValue: bool('allow_empty_value'),
};

const bodyParameterRules: Readonly<Record<string, Rule>> = {
  description: str('description'),
  name: str('name'),
  in: str('in'),
  required: bool('required'),
  schema: (v, c) => ['schema', c.schema(v, 'schema')],
};

const nonBodyKinds: Readonly<Record<string, readonly [string, Readonly<Record<string, Rule>>]>> = {
  header: ['header_parameter_sub_schema', plainParameterRules],
  formData: ['form_data_parameter_sub_schema', queryParameterRules],
  query: ['query_parameter_sub_schema', queryParameterRules],
  path: ['path_parameter_sub_schema', plainParameterRules],
};

const parametersRule: Rule = (v, c) => [
  'parameters',
  (Array.isArray(v) ? v : []).map((p, i) => c.parameter(p, `parameters[${i}]`)),
];

const operationRules: Readonly<Record<string, Rule>> = {
  tags: strings('tags'),
  summary: str('summary'),
  description: str('description'),
  operationId: str('operation_id'),
  produces: strings('produces'),
  consumes: strings('consumes'),
  parameters: parametersRule,
  responses: (v, c) => ['responses', c.responses(v)],
  schemes: strings('schemes'),
  deprecated: bool('deprecated'),
};

const responseRules: Readonly<Record<string, Rule>> = {
  description: str('description'),
  schema: (v, c) => ['schema', { schema: c.schema(v, 'schema') }],
};

const operationRule =
  (field: string): Rule =>
  (v, c) => [field, c.message(v, { rules: operationRules, vendorField: 'vendor_extension', at: field })];

const pathItemRules: Readonly<Record<string, Rule>> = {
  $ref: str('_ref'),
  get: operationRule('get'),
  put: operationRule('put'),
  post: operationRule('post'),
  delete: operationRule('delete'),
  options: operationRule('options'),
  head: operationRule('head'),
  patch: operationRule('patch'),
  parameters: parametersRule,
};

const infoRules: Readonly<Record<string, Rule>> = {
  title: str('title'),
  version: str('version'),
  description: str('description'),
};

const securitySchemes: Readonly<Record<string, readonly [string, Readonly<Record<string, Rule>>]>> = {
  apiKey: [
    'api_key_security',
    { type: str('type'), name: str('name'), in: str('in'), description: str('description') },
  ],
  basic: ['basic_authentication_security', { type: str('type'), description: str('description') }],
};

const documentRules: Readonly<Record<string, Rule>> = {
  swagger: str('swagger'),
  info: (v, c) => ['info', c.message(v, { rules: infoRules, vendorField: 'vendor_extension', at: 'info' })],
  host: str('host'),
  basePath: str('base_path'),
  schemes: strings('schemes'),
  consumes: strings('consumes'),
  produces: strings('produces'),
  paths: (v, c) => ['paths', c.paths(v)],
  definitions: (v, c) => [
    'definitions',
    { additional_properties: c.named(v, (s, name) => c.schema(s, name)) },
  ],
  security: (v) => [
    'security',
    (Array.isArray(v) ? v : []).map((req) => ({
      additional_properties: Object.entries(isObject(req) ? req : {}).map(([name, scopes]) => ({
        name,
        value: { value: Array.isArray(scopes) ? scopes.map(String) : [] },
      })),
    })),
  ],
  securityDefinitions: (v, c) => [
    'security_definitions',
    { additional_properties: c.named(v, (item, name) => c.securityScheme(item, name)) },
  ],
};

/** Walks the JSON document; members the model has no place for are listed in `dropped`. */
class Converter {
  readonly dropped: string[] = [];

  message(
    value: unknown,
    how: { rules: Readonly<Record<string, Rule>>; vendorField: string; at: string },
  ): Msg {
    const out: Msg = {};
    if (!isObject(value)) {
      this.dropped.push(how.at);
      return out;
    }
    const vendor: Msg[] = [];
    for (const [key, member] of Object.entries(value)) {
      const rule = how.rules[key];
      if (rule !== undefined) {
        const [field, converted] = rule(member, this);
        out[field] = converted;
      } else if (key.startsWith('x-')) {
        vendor.push({ name: key, value: toAny(member) });
      } else {
        this.dropped.push(`${how.at}.${key}`);
      }
    }
    if (vendor.length > 0) out[how.vendorField] = vendor;
    return out;
  }

  named(value: unknown, convert: (member: unknown, name: string) => Msg): Msg[] {
    return Object.entries(isObject(value) ? value : {}).map(([name, member]) => ({
      name,
      value: convert(member, name),
    }));
  }

  schema(value: unknown, at: string): Msg {
    return this.message(value, { rules: schemaRules, vendorField: 'vendor_extension', at });
  }

  parameter(value: unknown, at: string): Msg {
    if (isObject(value) && typeof value['$ref'] === 'string') {
      return { json_reference: { _ref: value['$ref'] } };
    }
    const where = isObject(value) ? String(value['in']) : '';
    if (where === 'body') {
      const body = this.message(value, { rules: bodyParameterRules, vendorField: 'vendor_extension', at });
      return { parameter: { body_parameter: body } };
    }
    const kind = nonBodyKinds[where];
    if (kind === undefined) {
      this.dropped.push(at);
      return {};
    }
    const [field, rules] = kind;
    const sub = this.message(value, { rules, vendorField: 'vendor_extension', at });
    return { parameter: { non_body_parameter: { [field]: sub } } };
  }

  responses(value: unknown): Msg {
    const codes: Msg[] = [];
    const vendor: Msg[] = [];
    for (const [code, response] of Object.entries(isObject(value) ? value : {})) {
      if (code.startsWith('x-')) {
        vendor.push({ name: code, value: toAny(response) });
      } else if (isObject(response) && typeof response['$ref'] === 'string') {
        codes.push({ name: code, value: { json_reference: { _ref: response['$ref'] } } });
      } else {
        const converted = this.message(response, {
          rules: responseRules,
          vendorField: 'vendor_extension',
          at: `responses.${code}`,
        });
        codes.push({ name: code, value: { response: converted } });
      }
    }
    return { response_code: codes, ...(vendor.length > 0 ? { vendor_extension: vendor } : {}) };
  }

  paths(value: unknown): Msg {
    const items: Msg[] = [];
    const vendor: Msg[] = [];
    for (const [path, item] of Object.entries(isObject(value) ? value : {})) {
      if (path.startsWith('x-')) vendor.push({ name: path, value: toAny(item) });
      else
        items.push({
          name: path,
          value: this.message(item, { rules: pathItemRules, vendorField: 'vendor_extension', at: path }),
        });
    }
    return { path: items, ...(vendor.length > 0 ? { vendor_extension: vendor } : {}) };
  }

  securityScheme(value: unknown, name: string): Msg {
    const kind = securitySchemes[isObject(value) ? String(value['type']) : ''];
    if (kind === undefined) {
      this.dropped.push(`securityDefinitions.${name}`);
      return {};
    }
    const [field, rules] = kind;
    return { [field]: this.message(value, { rules, vendorField: 'vendor_extension', at: name }) };
  }
}

/** The gnostic message of a swagger document, and the members it could not carry. */
export function swaggerToProtoMessage(doc: unknown): { message: Msg; dropped: readonly string[] } {
  const c = new Converter();
  const message = c.message(doc, { rules: documentRules, vendorField: 'vendor_extension', at: '' });
  return { message, dropped: c.dropped };
}

/** ToProtoBinary: the swagger document as gnostic's openapi.v2.Document bytes. */
export function swaggerToProtoBinary(doc: unknown): Buffer {
  const { message } = swaggerToProtoMessage(doc);
  const bytes = documentType.encode(documentType.fromObject(message)).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Decodes gnostic Document bytes into a plain object (field names as in the proto), for tests. */
export function decodeProtoDocument(bytes: Uint8Array): Msg {
  return documentType.toObject(documentType.decode(bytes), { longs: Number, defaults: false });
}
