// The handlers' success paths over the real core storages, HTTP-level without sockets.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse as parseYAML } from 'yaml';
import { coreAPI, type CoreAPI } from './testing/core-api.js';

const json = { 'content-type': 'application/json' };
const cms = '/api/v1/namespaces/default/configmaps';
const tableAccept =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const v2Accept =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };
let api: CoreAPI;

async function create(name: string, data: Record<string, string> = {}): Promise<Obj> {
  const res = await api.request({
    method: 'POST',
    url: cms,
    headers: json,
    payload: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

before(async () => {
  api = await coreAPI();
  const res = await api.request({
    method: 'POST',
    url: '/api/v1/namespaces',
    headers: json,
    payload: '{"metadata":{"name":"default"}}',
  });
  assert.equal(res.statusCode, 201, res.body);
});

after(async () => {
  await api.close();
});

test('create answers 201 with the stored object, written as Go writes JSON', async () => {
  const res = await api.request({
    method: 'POST',
    url: cms,
    headers: json,
    payload: '{"metadata":{"name":"a"},"data":{"k":"<v>"}}',
  });
  assert.equal(res.statusCode, 201);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.ok(res.body.endsWith('}\n'));
  assert.ok(res.body.includes('"k":"\\u003cv\\u003e"'));
  const obj = res.json<Obj>();
  assert.equal(obj['kind'], 'ConfigMap');
  assert.equal(obj['apiVersion'], 'v1');
  assert.equal(obj.metadata['namespace'], 'default');
  assert.ok(typeof obj.metadata['uid'] === 'string');
});

test('an unknown field is a Warning header by default and dropped', async () => {
  const res = await api.request({
    method: 'POST',
    url: cms,
    headers: json,
    payload: '{"metadata":{"name":"warned"},"bogus":1}',
  });
  assert.equal(res.statusCode, 201);
  assert.deepEqual(res.headers['warning'], ['299 - "unknown field \\"bogus\\""']);
  assert.equal(res.json<Obj>()['bogus'], undefined);
});

test('a dry-run create answers 201 and stores nothing', async () => {
  const before = await api.snapshot();
  const res = await api.request({
    method: 'POST',
    url: `${cms}?dryRun=All`,
    headers: json,
    payload: '{"metadata":{"name":"dry"}}',
  });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(await api.snapshot(), before);
});

test('get, as JSON, YAML, pretty JSON and PartialObjectMetadata', async () => {
  await create('g1', { x: 'y' });
  const plain = await api.request({ method: 'GET', url: `${cms}/g1` });
  assert.equal(plain.statusCode, 200);
  assert.deepEqual(plain.json<Obj>()['data'], { x: 'y' });
  const yaml = await api.request({
    method: 'GET',
    url: `${cms}/g1`,
    headers: { accept: 'application/yaml' },
  });
  assert.equal(yaml.headers['content-type'], 'application/yaml');
  assert.ok(yaml.body.startsWith('apiVersion: v1\ndata:\n  x: y\nkind: ConfigMap\n'), yaml.body);
  const pretty = await api.request({ method: 'GET', url: `${cms}/g1?pretty=true` });
  assert.ok(pretty.body.startsWith('{\n  "kind": "ConfigMap",\n  "apiVersion": "v1",'), pretty.body);
  const partial = await api.request({
    method: 'GET',
    url: `${cms}/g1`,
    headers: { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' },
  });
  const p = partial.json<Obj>();
  assert.equal(p['kind'], 'PartialObjectMetadata');
  assert.equal(p['apiVersion'], 'meta.k8s.io/v1');
  assert.equal(p.metadata['name'], 'g1');
  assert.equal(p['data'], undefined);
});

test('list, Table (with includeObject) and PartialObjectMetadataList', async () => {
  await create('l1');
  const list = (await api.request({ method: 'GET', url: cms })).json<{
    kind: string;
    items: Obj[];
    metadata: Obj;
  }>();
  assert.equal(list.kind, 'ConfigMapList');
  assert.ok(list.items.some((i) => i.metadata['name'] === 'l1'));
  const table = await api.request({
    method: 'GET',
    url: `${cms}?fieldSelector=metadata.name%3Dl1`,
    headers: { accept: tableAccept },
  });
  assert.equal(table.headers['content-type'], 'application/json');
  const t = table.json<{
    kind: string;
    apiVersion: string;
    columnDefinitions: unknown[];
    rows: { cells: unknown[]; object?: Obj }[];
  }>();
  assert.equal(t.kind, 'Table');
  assert.equal(t.apiVersion, 'meta.k8s.io/v1');
  assert.equal(t.rows.length, 1);
  assert.equal(t.rows[0]?.object?.['kind'], 'PartialObjectMetadata');
  const full = (
    await api.request({
      method: 'GET',
      url: `${cms}?fieldSelector=metadata.name%3Dl1&includeObject=Object`,
      headers: { accept: tableAccept },
    })
  ).json<typeof t>();
  assert.equal(full.rows[0]?.object?.['kind'], 'ConfigMap');
  const none = (
    await api.request({
      method: 'GET',
      url: `${cms}?fieldSelector=metadata.name%3Dl1&includeObject=None`,
      headers: { accept: tableAccept },
    })
  ).json<typeof t>();
  assert.equal(none.rows[0]?.object, undefined);
  const beta = (
    await api.request({
      method: 'GET',
      url: cms,
      headers: { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' },
    })
  ).json<typeof t>();
  assert.equal(beta.apiVersion, 'meta.k8s.io/v1beta1');
  const pl = (
    await api.request({
      method: 'GET',
      url: cms,
      headers: { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' },
    })
  ).json<{ kind: string; items: Obj[] }>();
  assert.equal(pl.kind, 'PartialObjectMetadataList');
  assert.ok(pl.items.every((i) => i['kind'] === 'PartialObjectMetadata'));
});

test('an empty list has items: []', async () => {
  const res = await api.request({ method: 'GET', url: '/api/v1/namespaces/default/secrets' });
  assert.match(res.body, /"items":\[\]/);
});

test('update answers 200; merge and JSON patches apply to the current object', async () => {
  const obj = await create('u1', { a: '1' });
  const put = await api.request({
    method: 'PUT',
    url: `${cms}/u1`,
    headers: json,
    payload: JSON.stringify({ ...obj, data: { a: '2' } }),
  });
  assert.equal(put.statusCode, 200, put.body);
  const merge = await api.request({
    method: 'PATCH',
    url: `${cms}/u1`,
    headers: { 'content-type': 'application/merge-patch+json' },
    payload: '{"data":{"a":null,"b":"3"}}',
  });
  assert.equal(merge.statusCode, 200, merge.body);
  assert.deepEqual(merge.json<Obj>()['data'], { b: '3' });
  const jp = await api.request({
    method: 'PATCH',
    url: `${cms}/u1`,
    headers: { 'content-type': 'application/json-patch+json' },
    payload: '[{"op":"test","path":"/data/b","value":"3"},{"op":"add","path":"/data/c","value":"4"}]',
  });
  assert.equal(jp.statusCode, 200, jp.body);
  assert.deepEqual(jp.json<Obj>()['data'], { b: '3', c: '4' });
});

test('delete answers 200; deletecollection answers the deleted list', async () => {
  await create('d1');
  const del = await api.request({ method: 'DELETE', url: `${cms}/d1` });
  assert.equal(del.statusCode, 200, del.body);
  assert.equal((await api.request({ method: 'GET', url: `${cms}/d1` })).statusCode, 404);
  await create('dc1');
  const dc = await api.request({
    method: 'DELETE',
    url: `${cms}?fieldSelector=metadata.name%3Ddc1`,
    headers: json,
    payload: '{"propagationPolicy":"Background"}',
  });
  assert.equal(dc.statusCode, 200, dc.body);
  assert.deepEqual(
    dc.json<{ items: Obj[] }>().items.map((i) => i.metadata['name']),
    ['dc1'],
  );
});

test('a namespace is created in its own name and deleted with 200', async () => {
  const res = await api.request({
    method: 'POST',
    url: '/api/v1/namespaces',
    headers: json,
    payload: '{"metadata":{"name":"team","namespace":"x"}}',
  });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.json<Obj>().metadata['namespace'], undefined);
  const status = await api.request({ method: 'GET', url: '/api/v1/namespaces/team/status' });
  assert.equal(status.statusCode, 200);
});

test('watch streams newline-delimited events until its timeout', async () => {
  const start = await create('w0');
  const rv = String(start.metadata['resourceVersion']);
  const watching = api.request({
    method: 'GET',
    url: `${cms}?watch=true&timeoutSeconds=1&resourceVersion=${rv}`,
  });
  await new Promise((r) => setTimeout(r, 100));
  await create('w1');
  const res = await watching;
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.equal(res.headers['transfer-encoding'], 'chunked');
  const lines = res.body.split('\n').filter((l) => l !== '');
  assert.ok(lines.length >= 1, res.body);
  const first = JSON.parse(lines[0] ?? '{}') as { type: string; object: Obj };
  assert.equal(first.type, 'ADDED');
  assert.equal(first.object.metadata['name'], 'w1');
  assert.ok(res.body.startsWith('{"type":"ADDED","object":{'));
});

test('a watch from resourceVersion 0 starts with the current objects; Tables carry headers once', async () => {
  await create('t1');
  await create('t2');
  const res = await api.request({
    method: 'GET',
    url: `${cms}?watch=1&timeoutSeconds=1&resourceVersion=0`,
    headers: { accept: tableAccept },
  });
  const events = res.body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { type: string; object: { kind: string; columnDefinitions: unknown } });
  assert.ok(events.length >= 2);
  assert.equal(events[0]!.object.kind, 'Table');
  assert.ok(Array.isArray(events[0]!.object.columnDefinitions));
  assert.equal(events[1]!.object.columnDefinitions, null);
});

test('a legacy /watch/ path watches one object', async () => {
  const obj = await create('lw');
  const watching = api.request({
    method: 'GET',
    url: `/api/v1/watch/namespaces/default/configmaps/lw?timeoutSeconds=1&resourceVersion=${String(obj.metadata['resourceVersion'])}`,
  });
  await create('other-lw');
  await api.request({ method: 'DELETE', url: `${cms}/lw` });
  const events = (await watching).body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { type: string; object: Obj });
  assert.deepEqual(
    events.map((e) => `${e.type} ${String(e.object.metadata['name'])}`),
    ['DELETED lw'],
  );
});

test('discovery: /api, /api/v1, /apis, and aggregated v2 with an ETag', async () => {
  const apiDoc = (
    await api.request({ method: 'GET', url: '/api', headers: { host: 'example:6443' } })
  ).json<Obj>();
  assert.deepEqual(apiDoc, {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: 'example:6443' }],
  });
  const v1 = (await api.request({ method: 'GET', url: '/api/v1' })).json<{
    kind: string;
    groupVersion: string;
    resources: { name: string; verbs: string[]; shortNames?: string[] }[];
  }>();
  assert.equal(v1.groupVersion, 'v1');
  const cmr = v1.resources.find((r) => r.name === 'configmaps');
  assert.ok(cmr !== undefined);
  assert.deepEqual(cmr.verbs, [
    'create',
    'delete',
    'deletecollection',
    'get',
    'list',
    'patch',
    'update',
    'watch',
  ]);
  assert.deepEqual(cmr.shortNames, ['cm']);
  assert.deepEqual((await api.request({ method: 'GET', url: '/apis' })).json(), {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [],
  });
  const agg = await api.request({ method: 'GET', url: '/api', headers: { accept: v2Accept } });
  assert.equal(
    agg.headers['content-type'],
    'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  );
  const etag = agg.headers['etag'];
  assert.ok(typeof etag === 'string' && /^"[0-9A-F]{128}"$/.test(etag));
  const doc = agg.json<{
    kind: string;
    items: { versions: { resources: { resource: string; subresources?: { subresource: string }[] }[] }[] }[];
  }>();
  assert.equal(doc.kind, 'APIGroupDiscoveryList');
  const nsr = doc.items[0]?.versions[0]?.resources.find((r) => r.resource === 'namespaces');
  assert.deepEqual(
    nsr?.subresources?.map((s) => s.subresource),
    ['finalize', 'status'],
  );
  const cached = await api.request({
    method: 'GET',
    url: '/api',
    headers: { accept: v2Accept, 'if-none-match': etag },
  });
  assert.equal(cached.statusCode, 304);
  assert.equal(cached.body, '');
  const beta = await api.request({
    method: 'GET',
    url: '/apis',
    headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' },
  });
  assert.equal(
    beta.headers['content-type'],
    'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
  );
  assert.equal(beta.json<{ apiVersion: string }>().apiVersion, 'apidiscovery.k8s.io/v2beta1');
});

test('paths outside /api and /apis are not served', async () => {
  assert.equal(
    await api.handler.handle({ url: '/healthz', method: 'GET', headers: {} } as never, {} as never),
    false,
  );
});

test('YAML bodies are accepted', async () => {
  const res = await api.request({
    method: 'POST',
    url: cms,
    headers: { 'content-type': 'application/yaml' },
    payload: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  a: b\n',
  });
  assert.equal(res.statusCode, 201, res.body);
  assert.deepEqual((parseYAML(res.body) as Obj)['data'], { a: 'b' });
});

test('OpenAPI documents are served under /openapi', async () => {
  const { newOpenAPIService } = await import('./openapi/index.js');
  const { builtinScheme } = await import('../api/builtin-scheme.js');
  const withDocs = await coreAPI({
    openapi: newOpenAPIService({ scheme: builtinScheme(), groups: [api.group] }),
  });
  try {
    const v2 = await withDocs.request({
      method: 'GET',
      url: '/openapi/v2',
      headers: { accept: 'application/json' },
    });
    assert.equal(v2.statusCode, 200);
    assert.equal(v2.json<{ swagger: string }>().swagger, '2.0');
    const index = await withDocs.request({ method: 'GET', url: '/openapi/v3' });
    const paths = index.json<{ paths: Record<string, { serverRelativeURL: string }> }>().paths;
    const v1 = paths['api/v1'];
    assert.ok(v1 !== undefined);
    const doc = await withDocs.request({ method: 'GET', url: v1.serverRelativeURL });
    assert.equal(doc.statusCode, 200);
    assert.equal(doc.headers['cache-control'], 'public, immutable');
  } finally {
    await withDocs.close();
  }
});
