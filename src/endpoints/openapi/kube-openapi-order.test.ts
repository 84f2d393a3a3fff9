import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inKubeOpenAPIV3Order, inKubeSwaggerOrder } from './kube-openapi-order.js';

// The text kube-openapi (1.33's, c8a335a) writes for each part, from the field order of its spec
// types' MarshalNextJSON structs: named members in Props order, `$ref` last in a schema, maps and
// any JSON value sorted, extensions after every named member, sorted.
const pod = 'io.k8s.api.core.v1.Pod';
const schemaIn = {
  type: 'object',
  'x-kubernetes-group-version-kind': [{ version: 'v1', kind: 'Pod', group: '' }],
  properties: {
    spec: { allOf: [{ $ref: '#/definitions/x.PodSpec' }], default: { z: 1, a: 2 }, description: 'Spec.' },
    apiVersion: { type: 'string', description: 'APIVersion.' },
    items: { items: { type: 'string' }, type: 'array', 'x-kubernetes-list-type': 'set' },
    ref: { $ref: '#/definitions/x.Ref', description: 'A ref.' },
  },
  required: ['spec'],
  description: 'A pod.',
};
const schemaOut =
  '{"description":"A pod.","type":"object","required":["spec"],"properties":{' +
  '"apiVersion":{"description":"APIVersion.","type":"string"},' +
  '"items":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"},' +
  '"ref":{"description":"A ref.","$ref":"#/definitions/x.Ref"},' +
  '"spec":{"description":"Spec.","default":{"a":2,"z":1},"allOf":[{"$ref":"#/definitions/x.PodSpec"}]}},' +
  '"x-kubernetes-group-version-kind":[{"group":"","kind":"Pod","version":"v1"}]}';

describe('OpenAPI documents in kube-openapi’s member order', () => {
  const v2Cases: { name: string; input: unknown; want: string }[] = [
    {
      name: 'v2: the document, info, a path item, an operation, a parameter, responses, a definition',
      input: {
        info: { version: 'v1.33.0', title: 'Kubernetes' },
        swagger: '2.0',
        security: [{ BearerToken: [] }],
        securityDefinitions: {
          BearerToken: {
            type: 'apiKey',
            name: 'authorization',
            in: 'header',
            description: 'Bearer Token authentication',
          },
        },
        definitions: { [pod]: schemaIn },
        paths: {
          '/api/v1/pods': {
            parameters: [
              { name: 'pretty', in: 'query', description: 'Pretty.', type: 'string', uniqueItems: true },
            ],
            get: {
              'x-kubernetes-group-version-kind': { version: 'v1', kind: 'Pod', group: '' },
              'x-kubernetes-action': 'list',
              responses: {
                '401': { description: 'Unauthorized' },
                '200': { schema: { $ref: '#/definitions/x' }, description: 'OK' },
              },
              operationId: 'listPod',
              tags: ['core_v1'],
              schemes: ['https'],
              produces: ['application/json'],
              consumes: ['*/*'],
              description: 'list pods',
            },
          },
          '/api/': { get: { description: 'versions', operationId: 'getCoreAPIVersions' } },
        },
      },
      want:
        '{"swagger":"2.0","info":{"title":"Kubernetes","version":"v1.33.0"},"paths":{' +
        '"/api/":{"get":{"description":"versions","operationId":"getCoreAPIVersions"}},' +
        '"/api/v1/pods":{"get":{"description":"list pods","consumes":["*/*"],"produces":["application/json"],' +
        '"schemes":["https"],"tags":["core_v1"],"operationId":"listPod","responses":{' +
        '"200":{"description":"OK","schema":{"$ref":"#/definitions/x"}},"401":{"description":"Unauthorized"}},' +
        '"x-kubernetes-action":"list","x-kubernetes-group-version-kind":{"group":"","kind":"Pod","version":"v1"}},' +
        '"parameters":[{"uniqueItems":true,"type":"string","description":"Pretty.","name":"pretty","in":"query"}]}},' +
        `"definitions":{"${pod}":${schemaOut}},` +
        '"securityDefinitions":{"BearerToken":{"description":"Bearer Token authentication","type":"apiKey","name":"authorization","in":"header"}},' +
        '"security":[{"BearerToken":[]}]}',
    },
  ];
  for (const c of v2Cases) {
    it(c.name, () => {
      assert.equal(JSON.stringify(inKubeSwaggerOrder(c.input)), c.want);
    });
  }

  it('v3: the document, a path, an operation with a request body, content maps, components', () => {
    const input = {
      paths: {
        '/api/v1/namespaces/{namespace}/pods/{name}': {
          parameters: [
            {
              schema: { uniqueItems: true, type: 'string' },
              description: 'name',
              in: 'path',
              name: 'name',
              required: true,
            },
          ],
          patch: {
            'x-kubernetes-action': 'patch',
            responses: {
              '200': {
                content: {
                  'application/yaml': { schema: { $ref: '#/c' } },
                  'application/json': { schema: { $ref: '#/c' } },
                },
                description: 'OK',
              },
            },
            requestBody: {
              required: true,
              content: {
                'application/json-patch+json': { schema: { $ref: '#/p' } },
                'application/apply-patch+yaml': { schema: { $ref: '#/p' } },
              },
            },
            operationId: 'patchPod',
            description: 'patch',
            tags: ['core_v1'],
          },
        },
      },
      components: {
        securitySchemes: {
          BearerToken: {
            description: 'Bearer Token authentication',
            type: 'apiKey',
            name: 'authorization',
            in: 'header',
          },
        },
        schemas: { [pod]: schemaIn },
      },
      security: [{ BearerToken: [] }],
      info: { version: 'v1.33.0', title: 'Kubernetes' },
      openapi: '3.0.0',
    };
    assert.equal(
      JSON.stringify(inKubeOpenAPIV3Order(input)),
      '{"openapi":"3.0.0","info":{"title":"Kubernetes","version":"v1.33.0"},"paths":{' +
        '"/api/v1/namespaces/{namespace}/pods/{name}":{"patch":{"tags":["core_v1"],"description":"patch","operationId":"patchPod",' +
        '"requestBody":{"content":{"application/apply-patch+yaml":{"schema":{"$ref":"#/p"}},"application/json-patch+json":{"schema":{"$ref":"#/p"}}},"required":true},' +
        '"responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/c"}},"application/yaml":{"schema":{"$ref":"#/c"}}}}},' +
        '"x-kubernetes-action":"patch"},' +
        '"parameters":[{"name":"name","in":"path","description":"name","required":true,"schema":{"type":"string","uniqueItems":true}}]}},' +
        `"components":{"schemas":{"${pod}":${schemaOut}},` +
        '"securitySchemes":{"BearerToken":{"type":"apiKey","description":"Bearer Token authentication","name":"authorization","in":"header"}}},' +
        '"security":[{"BearerToken":[]}]}',
    );
  });

  it('leaves out a schema’s omitempty members that encode empty, keeps a default that does', () => {
    const input = {
      swagger: '2.0',
      definitions: {
        s: { properties: {}, type: 'object', required: [], description: '', default: {}, enum: [] },
      },
    };
    assert.equal(
      JSON.stringify(inKubeSwaggerOrder(input)),
      '{"swagger":"2.0","definitions":{"s":{"type":"object","default":{}}}}',
    );
  });

  it('leaves its input as it was', () => {
    const input = { paths: {}, swagger: '2.0' };
    inKubeSwaggerOrder(input);
    assert.deepEqual(Object.keys(input), ['paths', 'swagger']);
  });
});
