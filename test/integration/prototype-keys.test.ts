// Keys a client may send that name Object.prototype's members (`__proto__`, `constructor`): every
// write path treats them as ordinary members, and none reaches Object.prototype of the server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
let token = '';
const path = '/api/v1/namespaces/default/configmaps';

async function call(
  method: string,
  url: string,
  body: string,
  type = 'application/json',
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    ...(method === 'GET' ? {} : { body }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const unpolluted = (): void => {
  assert.deepEqual(Object.keys(Object.prototype), []);
  assert.equal(({} as { polluted?: unknown }).polluted, undefined);
};

describe('prototype-named keys from clients', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    token = server.kubeConfig.users[0]?.user.token ?? '';
  });
  after(() => server.stop());

  it('a ConfigMap may name a data key __proto__ (kube allows it) and reads it back', async () => {
    const created = await call(
      'POST',
      path,
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p"},"data":{"__proto__":"x","constructor":"y"}}',
    );
    assert.equal(created.status, 201);
    const got = await call('GET', `${path}/p`, '');
    assert.deepEqual(Object.keys(got.json['data'] as object), ['__proto__', 'constructor']);
    unpolluted();
  });

  it('keeps a __proto__ key among keys it puts in order (a ConfigMap, a custom resource)', async () => {
    // Out of Go's order, so the stored object is rebuilt with the keys sorted.
    const created = await call(
      'POST',
      path,
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"q"},"data":{"zeta":"1","__proto__":"x","constructor":"y"}}',
    );
    assert.equal(created.status, 201);
    const got = await call('GET', `${path}/q`, '');
    assert.deepEqual(got.json['data'], JSON.parse('{"__proto__":"x","constructor":"y","zeta":"1"}'));
    assert.deepEqual(Object.keys(got.json['data'] as object), ['__proto__', 'constructor', 'zeta']);

    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'things.proto.example.com' },
      spec: {
        group: 'proto.example.com',
        scope: 'Namespaced',
        names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', additionalProperties: { type: 'string' } } },
              },
            },
          },
        ],
      },
    };
    const made = await call(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      JSON.stringify(crd),
    );
    assert.equal(made.status, 201);
    const things = '/apis/proto.example.com/v1/namespaces/default/things';
    const thing =
      '{"apiVersion":"proto.example.com/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"zeta":"1","__proto__":"x"}}';
    // The group is served once the definition is established.
    const res = await waitFor(
      'the things to be served',
      () => call('POST', things, thing),
      (r) => r.status !== 404,
    );
    assert.equal(res.status, 201, JSON.stringify(res.json));
    const read = await call('GET', `${things}/t`, '');
    assert.deepEqual(read.json['spec'], JSON.parse('{"__proto__":"x","zeta":"1"}'));
    assert.deepEqual(Object.keys(read.json['spec'] as object), ['__proto__', 'zeta']);
    unpolluted();
  });

  it('a scale subresource whose specReplicasPath passes through __proto__ writes an ordinary member', async () => {
    // kube's SetNestedField makes spec.__proto__ a map key like any other, and reads it back.
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'scalers.proto.example.com' },
      spec: {
        group: 'proto.example.com',
        scope: 'Namespaced',
        names: { plural: 'scalers', singular: 'scaler', kind: 'Scaler', listKind: 'ScalerList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
            },
            subresources: {
              scale: { specReplicasPath: '.spec.__proto__.replicas', statusReplicasPath: '.status.replicas' },
            },
          },
        ],
      },
    };
    const made = await call(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      JSON.stringify(crd),
    );
    assert.equal(made.status, 201, JSON.stringify(made.json));
    const scalers = '/apis/proto.example.com/v1/namespaces/default/scalers';
    const scaler = '{"apiVersion":"proto.example.com/v1","kind":"Scaler","metadata":{"name":"s"},"spec":{}}';
    const res = await waitFor(
      'the scalers to be served',
      () => call('POST', scalers, scaler),
      (r) => r.status !== 404,
    );
    assert.equal(res.status, 201, JSON.stringify(res.json));
    const scaled = await call(
      'PATCH',
      `${scalers}/s/scale`,
      '{"spec":{"replicas":3}}',
      'application/merge-patch+json',
    );
    assert.equal(scaled.status, 200, JSON.stringify(scaled.json));
    assert.deepEqual(scaled.json['spec'], { replicas: 3 });
    const read = await call('GET', `${scalers}/s`, '');
    assert.deepEqual(read.json['spec'], JSON.parse('{"__proto__":{"replicas":3}}'));
    assert.equal(({} as { replicas?: unknown }).replicas, undefined);
    unpolluted();
  });

  for (const [type, body] of [
    [
      'application/merge-patch+json',
      '{"data":{"__proto__":{"polluted":"yes"}},"__proto__":{"polluted":"yes"}}',
    ],
    ['application/merge-patch+json', '{"metadata":{"__proto__":{"polluted":"yes"}}}'],
    [
      'application/strategic-merge-patch+json',
      '{"data":{"__proto__":{"polluted":"yes"}},"__proto__":{"polluted":"yes"}}',
    ],
    ['application/strategic-merge-patch+json', '{"metadata":{"labels":{"__proto__":{"polluted":"yes"}}}}'],
    ['application/json-patch+json', '[{"op":"add","path":"/data/__proto__","value":"z"}]'],
    [
      'application/apply-patch+yaml',
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p","__proto__":{"polluted":"yes"}},"data":{"__proto__":"w"}}',
    ],
  ] as const) {
    it(`${type} ${body} leaves Object.prototype alone`, async () => {
      const suffix = type === 'application/apply-patch+yaml' ? '?fieldManager=t&force=true' : '';
      // Refused or applied: what matters here is that the server's objects keep their prototype.
      const res = await call('PATCH', `${path}/p${suffix}`, body, type);
      assert.equal(res.json['kind'] === 'Status' || res.json['kind'] === 'ConfigMap', true);
      unpolluted();
    });
  }
});
