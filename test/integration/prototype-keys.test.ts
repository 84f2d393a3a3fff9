// Keys a client may send that name Object.prototype's members (`__proto__`, `constructor`): every
// write path treats them as ordinary members, and none reaches Object.prototype of the server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

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
