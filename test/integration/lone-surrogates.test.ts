// A lone UTF-16 surrogate escaped in a JSON body (`"\ud800"`): kube-apiserver decodes it into Go
// values as U+FFFD, so the object stored, served and found by name holds U+FFFD. Every way a body
// comes in does the same here: a create, the three patch types and a server-side apply.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

let server: CapstanServer;
let token = '';
const configMaps = '/api/v1/namespaces/default/configmaps';

async function call(
  method: string,
  url: string,
  body?: string,
  type = 'application/json',
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const dataOf = (json: Record<string, unknown>): unknown => json['data'];

describe('lone surrogates in JSON bodies', () => {
  before(async () => {
    server = await startCapstan({ storage: 'sqlite', scheme: 'http' });
    token = server.kubeConfig.users[0]?.user.token ?? '';
  });
  after(() => server.stop());

  it('a create stores U+FFFD in a name and a value; the object is found by that name', async () => {
    const role = await call(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      '{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"r\\ud800"}}',
    );
    assert.equal(role.status, 201, JSON.stringify(role.json));
    assert.equal((role.json['metadata'] as { name: string }).name, 'r\ufffd');
    const read = await call(
      'GET',
      `/apis/rbac.authorization.k8s.io/v1/clusterroles/${encodeURIComponent('r\ufffd')}`,
    );
    assert.equal(read.status, 200);

    const made = await call(
      'POST',
      configMaps,
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"k":"v\\ud800","pair":"\\ud83d\\ude00"}}',
    );
    assert.equal(made.status, 201, JSON.stringify(made.json));
    assert.deepEqual(dataOf(made.json), { k: 'v\ufffd', pair: '😀' });
    assert.deepEqual(dataOf((await call('GET', `${configMaps}/cm`)).json), {
      k: 'v\ufffd',
      pair: '😀',
    });
  });

  it('a key is read as U+FFFD before validation, which names it so', async () => {
    const refused = await call(
      'POST',
      configMaps,
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"keyed"},"data":{"k\\udc00":"v"}}',
    );
    assert.equal(refused.status, 422);
    const causes = (refused.json['details'] as { causes: { field: string }[] }).causes;
    assert.deepEqual(
      causes.map((c) => c.field),
      ['data[k\ufffd]'],
    );
  });

  it('merge, strategic merge and JSON patches write U+FFFD', async () => {
    const merged = await call(
      'PATCH',
      `${configMaps}/cm`,
      '{"data":{"m":"\\ud800"}}',
      'application/merge-patch+json',
    );
    assert.equal(merged.status, 200, JSON.stringify(merged.json));
    const strategic = await call(
      'PATCH',
      `${configMaps}/cm`,
      '{"data":{"s":"x\\udbff"}}',
      'application/strategic-merge-patch+json',
    );
    assert.equal(strategic.status, 200, JSON.stringify(strategic.json));
    const patched = await call(
      'PATCH',
      `${configMaps}/cm`,
      '[{"op":"add","path":"/data/j","value":"\\udfff"}]',
      'application/json-patch+json',
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.json));
    assert.deepEqual(dataOf((await call('GET', `${configMaps}/cm`)).json), {
      k: 'v\ufffd',
      pair: '😀',
      m: '\ufffd',
      s: 'x\ufffd',
      j: '\ufffd',
    });
  });

  it('a key is read as U+FFFD before validation, which names it so', async () => {
    const refused = await call(
      'POST',
      configMaps,
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"keyed"},"data":{"k\\udc00":"v"}}',
    );
    assert.equal(refused.status, 422);
    const causes = (refused.json['details'] as { causes: { field: string }[] }).causes;
    assert.deepEqual(
      causes.map((c) => c.field),
      ['data[k\ufffd]'],
    );
  });

  it('merge, strategic merge and JSON patches write U+FFFD', async () => {
    const merged = await call(
      'PATCH',
      `${configMaps}/cm`,
      '{"data":{"m":"\\ud800"}}',
      'application/merge-patch+json',
    );
    assert.equal(merged.status, 200, JSON.stringify(merged.json));
    const strategic = await call(
      'PATCH',
      `${configMaps}/cm`,
      '{"data":{"s":"x\\udbff"}}',
      'application/strategic-merge-patch+json',
    );
    assert.equal(strategic.status, 200, JSON.stringify(strategic.json));
    const patched = await call(
      'PATCH',
      `${configMaps}/cm`,
      '[{"op":"add","path":"/data/j","value":"\\udfff"}]',
      'application/json-patch+json',
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.json));
    assert.deepEqual(dataOf((await call('GET', `${configMaps}/cm`)).json), {
      k: 'v\ufffd',
      pair: '😀',
      m: '\ufffd',
      s: 'x\ufffd',
      j: '\ufffd',
    });
  });

  // kube decodes an apply body and a YAML body with go-yaml, whose scanner refuses a `\u` or `\U`
  // escape of a surrogate in a double-quoted scalar, even half of a pair that JSON allows.
  it('an apply body or a YAML body escaping a surrogate is refused as go-yaml refuses it', async () => {
    const apply = (body: string): ReturnType<typeof call> =>
      call('PATCH', `${configMaps}/cm?fieldManager=tester`, body, 'application/apply-patch+yaml');
    const refusal = (line: string): string =>
      `error decoding YAML: error converting YAML to JSON: yaml: ${line}found invalid Unicode character escape code`;
    for (const value of ['\\ud800!', '\\ud83d\\ude00', '\\U0000dfff']) {
      const res = await apply(
        `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"a":"${value}"}}`,
      );
      assert.equal(res.status, 400, value);
      assert.equal(res.json['message'], refusal(''), value);
    }
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: "x\\udc00"\n';
    const refused = await apply(yaml);
    assert.equal(refused.status, 400);
    assert.equal(refused.json['message'], refusal('line 6: '));
    const created = await call(
      'POST',
      configMaps,
      yaml.replace('name: cm', 'name: from-yaml'),
      'application/yaml',
    );
    assert.equal(created.status, 400);
    assert.match(
      String(created.json['message']),
      /yaml: line 6: found invalid Unicode character escape code/,
    );

    // Outside double quotes a backslash is itself: no escape, nothing refused.
    const literal = await apply(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  p: \\ud800\n  q: \'\\ud800\'\n  r: "\\\\ud800"\n',
    );
    assert.equal(literal.status, 200, JSON.stringify(literal.json));
  });
});
