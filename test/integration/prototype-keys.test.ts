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

/** Defines the namespaced kind `kind` of proto.example.com/v1 (`version` its schema and subresources); its collection's path. */
async function defineKind(kind: string, version: Record<string, unknown>): Promise<string> {
  const singular = kind.toLowerCase();
  const plural = `${singular}s`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.proto.example.com` },
    spec: {
      group: 'proto.example.com',
      scope: 'Namespaced',
      names: { plural, singular, kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, ...version }],
    },
  };
  const made = await call(
    'POST',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    JSON.stringify(crd),
  );
  assert.equal(made.status, 201, JSON.stringify(made.json));
  return `/apis/proto.example.com/v1/namespaces/default/${plural}`;
}

/** Creates `body` in a custom resource collection once its group is served (the definition established). */
async function createWhenServed(collection: string, body: string): Promise<void> {
  const res = await waitFor(
    `${collection} to be served`,
    () => call('POST', collection, body),
    (r) => r.status !== 404,
  );
  assert.equal(res.status, 201, JSON.stringify(res.json));
}

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

    const things = await defineKind('Thing', {
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: { spec: { type: 'object', additionalProperties: { type: 'string' } } },
        },
      },
    });
    await createWhenServed(
      things,
      '{"apiVersion":"proto.example.com/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"zeta":"1","__proto__":"x"}}',
    );
    const read = await call('GET', `${things}/t`, '');
    assert.deepEqual(read.json['spec'], JSON.parse('{"__proto__":"x","zeta":"1"}'));
    assert.deepEqual(Object.keys(read.json['spec'] as object), ['__proto__', 'zeta']);
    unpolluted();
  });

  it('a scale subresource whose specReplicasPath passes through __proto__ writes an ordinary member', async () => {
    // kube's SetNestedField makes spec.__proto__ a map key like any other, and reads it back.
    const scalers = await defineKind('Scaler', {
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
    });
    await createWhenServed(
      scalers,
      '{"apiVersion":"proto.example.com/v1","kind":"Scaler","metadata":{"name":"s"},"spec":{}}',
    );
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
