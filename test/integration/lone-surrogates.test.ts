// A lone UTF-16 surrogate escaped in a JSON body (`"\ud800"`): kube-apiserver decodes it into Go
// values as U+FFFD, so the object stored, served and found by name holds U+FFFD. A create and the
// three patch types do the same here. An apply body and a YAML body are read by go-yaml in kube,
// whose scanner refuses such an escape: so are they here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { adminToken } from './support/https-call.js';
import { jsonCall, type JSONReply } from './support/json-call.js';

let server: CapstanServer;
const configMaps = '/api/v1/namespaces/default/configmaps';

// JSON.stringify writes a lone surrogate as its `\uXXXX` escape: these bodies carry the escapes.
const call = (method: string, path: string, body?: unknown): Promise<JSONReply> =>
  jsonCall(server, { method, path, ...(body === undefined ? {} : { body }) });

/** A body sent as written, for the texts JSON.stringify would not write (YAML, escapes of pairs). */
async function textCall(
  path: string,
  req: { readonly method: string; readonly body: string; readonly type: string },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, {
    method: req.method,
    headers: { authorization: `Bearer ${adminToken(server)}`, 'content-type': req.type },
    body: req.body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A create from JSON text as written (escapes JSON.stringify would not write). */
const postJSONText = (path: string, body: string): ReturnType<typeof textCall> =>
  textCall(path, { method: 'POST', body, type: 'application/json' });

const dataOf = async (name: string): Promise<unknown> =>
  (await call('GET', `${configMaps}/${name}`)).body['data'];

describe('lone surrogates in JSON bodies', () => {
  before(async () => {
    server = await startCapstan({ storage: 'sqlite', scheme: 'http' });
  });
  after(() => server.stop());

  it('a create stores U+FFFD in a name and a value; the object is found by that name', async () => {
    const roles = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
    const role = await call('POST', roles, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r\ud800' },
    });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    assert.equal((role.body['metadata'] as { name: string }).name, 'r\ufffd');
    assert.equal((await call('GET', `${roles}/${encodeURIComponent('r\ufffd')}`)).status, 200);

    const made = await postJSONText(
      configMaps,
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"k":"v\\ud800","pair":"\\ud83d\\ude00"}}',
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body['data'], { k: 'v\ufffd', pair: '😀' });
    assert.deepEqual(await dataOf('cm'), { k: 'v\ufffd', pair: '😀' });
  });

  // Such bodies are decoded again from their text, as Go's decoder reads it (go-decode.ts).
  it('so does a body with a repeated key or a number written with a fraction', async () => {
    const repeated = await postJSONText(
      configMaps,
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-repeated"},"data":{"k":"v\\ud800"},"data":{"k2":"w\\udbff"}}',
    );
    assert.equal(repeated.status, 201, JSON.stringify(repeated.body));
    // Go decodes a repeated map into the same map: both members are kept.
    assert.deepEqual(repeated.body['data'], { k: 'v\ufffd', k2: 'w\ufffd' });
    const quotas = '/api/v1/namespaces/default/resourcequotas';
    const fraction = await postJSONText(
      quotas,
      '{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"rq","annotations":{"a":"x\\ud800"}},"spec":{"hard":{"cpu":0.5}}}',
    );
    assert.equal(fraction.status, 201, JSON.stringify(fraction.body));
    assert.deepEqual((fraction.body['metadata'] as { annotations: unknown }).annotations, { a: 'x\ufffd' });
    assert.deepEqual((fraction.body['spec'] as { hard: unknown }).hard, { cpu: '500m' });
  });

  it('a key is read as U+FFFD before validation, which names it so', async () => {
    const refused = await call('POST', configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'keyed' },
      data: { 'k\udc00': 'v' },
    });
    assert.equal(refused.status, 422);
    const causes = (refused.body['details'] as { causes: { field: string }[] }).causes;
    assert.deepEqual(
      causes.map((c) => c.field),
      ['data[k\ufffd]'],
    );
  });

  it('merge, strategic merge and JSON patches write U+FFFD', async () => {
    const patches: readonly (readonly [string, unknown])[] = [
      ['application/merge-patch+json', { data: { m: '\ud800' } }],
      ['application/strategic-merge-patch+json', { data: { s: 'x\udbff' } }],
      ['application/json-patch+json', [{ op: 'add', path: '/data/j', value: '\udfff' }]],
    ];
    for (const [contentType, body] of patches) {
      const res = await jsonCall(server, { method: 'PATCH', path: `${configMaps}/cm`, body, contentType });
      assert.equal(res.status, 200, `${contentType}: ${JSON.stringify(res.body)}`);
    }
    assert.deepEqual(await dataOf('cm'), {
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
    const apply = (body: string, name = 'cm'): ReturnType<typeof textCall> =>
      textCall(`${configMaps}/${name}?fieldManager=tester`, {
        method: 'PATCH',
        body,
        type: 'application/apply-patch+yaml',
      });
    const refusal = (line: string): string =>
      `error decoding YAML: error converting YAML to JSON: yaml: ${line}found invalid Unicode character escape code`;
    for (const value of ['\\ud800!', '\\ud83d\\ude00', '\\U0000dfff']) {
      const res = await apply(
        `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"a":"${value}"}}`,
      );
      assert.equal(res.status, 400, value);
      assert.equal(res.body['message'], refusal(''), value);
    }
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: "x\\udc00"\n';
    const refused = await apply(yaml);
    assert.equal(refused.status, 400);
    assert.equal(refused.body['message'], refusal('line 6: '));
    const created = await textCall(configMaps, {
      method: 'POST',
      body: yaml.replace('name: cm', 'name: from-yaml'),
      type: 'application/yaml',
    });
    assert.equal(created.status, 400);
    assert.match(
      String(created.body['message']),
      /yaml: line 6: found invalid Unicode character escape code/,
    );

    // Outside double quotes a backslash is itself: no escape, nothing refused.
    const literal = await apply(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: literal\ndata:\n  p: \\ud800\n  q: \'\\ud800\'\n  r: "\\\\ud800"\n',
      'literal',
    );
    assert.equal(literal.status, 201, JSON.stringify(literal.body));
    assert.deepEqual(literal.body['data'], { p: '\\ud800', q: '\\ud800', r: '\\ud800' });
  });
});
