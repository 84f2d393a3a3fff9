import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { newOpenAPIService } from './openapi-service.js';
import { decodeProtoDocument, swaggerToProtoBinary, swaggerToProtoMessage } from './proto-v2.js';
import { fakeCoreGroup } from './testing/fake-groups.js';

type Msg = Record<string, unknown>;
const obj = (v: unknown): Msg => (typeof v === 'object' && v !== null ? (v as Msg) : {});
const arr = (v: unknown): Msg[] => (Array.isArray(v) ? (v as Msg[]) : []);

const service = newOpenAPIService({ scheme: builtinScheme(), groups: [fakeCoreGroup()] });
const json = JSON.parse(service.v2().toString()) as Msg;
const decoded = decodeProtoDocument((await service.v2ProtoDocument()).body);

/** The JSON schema a decoded gnostic Schema stands for (the inverse of the encoder, for checking). */
function schemaBack(s: Msg): Msg {
  const out: Msg = {};
  const names: Record<string, string> = {
    _ref: '$ref',
    format: 'format',
    title: 'title',
    description: 'description',
    pattern: 'pattern',
    required: 'required',
    unique_items: 'uniqueItems',
    max_length: 'maxLength',
    min_length: 'minLength',
    minimum: 'minimum',
    maximum: 'maximum',
  };
  for (const [field, value] of Object.entries(s)) {
    const name = names[field];
    if (name !== undefined) out[name] = value;
    else if (field === 'default') out['default'] = JSON.parse(String(obj(value)['yaml'])) as unknown;
    else if (field === 'enum') out['enum'] = arr(value).map((a) => JSON.parse(String(a['yaml'])) as unknown);
    else if (field === 'type') {
      const types = arr(obj(value)['value']);
      out['type'] = types.length === 1 ? types[0] : types;
    } else if (field === 'items') out['items'] = schemaBack(arr(obj(value)['schema'])[0] ?? {});
    else if (field === 'all_of') out['allOf'] = arr(value).map(schemaBack);
    else if (field === 'properties')
      out['properties'] = Object.fromEntries(
        arr(obj(value)['additional_properties']).map((n) => [n['name'], schemaBack(obj(n['value']))]),
      );
    else if (field === 'additional_properties') {
      const ap = obj(value);
      out['additionalProperties'] = 'boolean' in ap ? ap['boolean'] : schemaBack(obj(ap['schema']));
    } else if (field === 'vendor_extension')
      for (const e of arr(value))
        out[String(e['name'])] = JSON.parse(String(obj(e['value'])['yaml'])) as unknown;
    else throw new Error(`unexpected field ${field}`);
  }
  return out;
}

describe('OpenAPI v2 in protobuf (gnostic openapi.v2.Document)', () => {
  it('carries every member of the served document', () => {
    assert.deepEqual(swaggerToProtoMessage(json).dropped, []);
  });

  it('writes fields under gnostic field numbers', () => {
    // Document.swagger = 1 (tag 0x0a); Document.info = 2 holding Info.title = 1 and Info.version = 2.
    const bytes = swaggerToProtoBinary({ swagger: '2.0', info: { title: 'T', version: 'v' } });
    assert.deepEqual([...bytes], [0x0a, 3, 0x32, 0x2e, 0x30, 0x12, 6, 0x0a, 1, 0x54, 0x12, 1, 0x76]);
    // Document.definitions = 9 → Definitions.additional_properties = 1 → NamedSchema{name 1, value 2}
    // → Schema.type = 22 (TypeItem.value = 1).
    const defs = swaggerToProtoBinary({ definitions: { a: { type: 'string' } } });
    assert.deepEqual(
      [...defs],
      [0x4a, 18, 0x0a, 16, 0x0a, 1, 0x61, 0x12, 11, 0xb2, 0x01, 8, 0x0a, 6, ...Buffer.from('string')],
    );
  });

  it('round-trips every definition, vendor extensions as YAML (JSON) text', () => {
    const definitions = obj(json['definitions']);
    const named = arr(obj(decoded['definitions'])['additional_properties']);
    assert.deepEqual(
      named.map((n) => n['name']),
      Object.keys(definitions),
    );
    for (const n of named) assert.deepEqual(schemaBack(obj(n['value'])), definitions[String(n['name'])]);
    const secret = named.find((n) => n['name'] === 'io.k8s.api.core.v1.Secret');
    const gvk = arr(obj(secret?.['value'])['vendor_extension']).find(
      (e) => e['name'] === 'x-kubernetes-group-version-kind',
    );
    assert.deepEqual(JSON.parse(String(obj(gvk?.['value'])['yaml'])), [
      { group: '', kind: 'Secret', version: 'v1' },
    ]);
  });

  it('keeps paths in order with operations, body and query parameters, and responses', () => {
    const paths = arr(obj(decoded['paths'])['path']);
    assert.deepEqual(
      paths.map((p) => p['name']),
      Object.keys(obj(json['paths'])),
    );
    const item = obj(
      paths.find((p) => p['name'] === '/api/v1/namespaces/{namespace}/secrets/{name}')?.['value'],
    );
    const put = obj(item['put']);
    assert.equal(put['operation_id'], 'replaceCoreV1NamespacedSecret');
    const [body, ...rest] = arr(put['parameters']).map((p) => obj(obj(p['parameter'])));
    assert.deepEqual(obj(body?.['body_parameter'])['schema'], {
      _ref: '#/definitions/io.k8s.api.core.v1.Secret',
    });
    const query = rest.map((p) => obj(obj(p['non_body_parameter'])['query_parameter_sub_schema']));
    assert.ok(
      query.some((q) => q['name'] === 'fieldValidation' && q['in'] === 'query' && q['type'] === 'string'),
    );
    const ok = arr(obj(put['responses'])['response_code']).find((r) => r['name'] === '200');
    assert.deepEqual(obj(obj(obj(ok?.['value'])['response'])['schema'])['schema'], {
      _ref: '#/definitions/io.k8s.api.core.v1.Secret',
    });
    const shared = arr(item['parameters']).map((p) => obj(obj(p['parameter'])['non_body_parameter']));
    assert.ok(shared.some((p) => obj(p['path_parameter_sub_schema'])['name'] === 'namespace'));
    const action = arr(put['vendor_extension']).find((e) => e['name'] === 'x-kubernetes-action');
    assert.equal(obj(action?.['value'])['yaml'], '"put"');
  });

  it('carries the security definitions and requirements', () => {
    const [scheme] = arr(obj(decoded['security_definitions'])['additional_properties']);
    assert.equal(scheme?.['name'], 'BearerToken');
    assert.equal(obj(obj(scheme['value'])['api_key_security'])['in'], 'header');
    assert.deepEqual(decoded['security'], [{ additional_properties: [{ name: 'BearerToken', value: {} }] }]);
  });

  it('lists what it cannot carry instead of failing', () => {
    const { dropped } = swaggerToProtoMessage({
      swagger: '2.0',
      bogus: 1,
      definitions: { a: { type: 'object', nullable: true } },
      paths: { '/x': { get: { parameters: [{ in: 'cookie', name: 'c' }], responses: {} } } },
    });
    assert.deepEqual(dropped, ['.bogus', 'a.nullable', 'parameters[0]']);
  });
});
