// Reads answered from the watch cache's stored JSON (no decode, no encode): a get, a list streamed
// around its items (gzipped past 128 KiB when accepted) and watch frames must say exactly what the
// object-writing path says (pretty JSON, YAML, Table-less paths), over real HTTP.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { parse as parseYAML } from 'yaml';
import { startCapstan, type CapstanServer } from '../../src/index.js';

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

let server: CapstanServer;
let token = '';

function call(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${path}`,
      {
        method: opts.method ?? 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const json = (r: Reply): unknown => JSON.parse(r.body.toString());
const path = '/api/v1/namespaces/default/configmaps';

describe('reads served from stored JSON', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    token = server.kubeConfig.users[0]?.user.token ?? '';
    const data = { text: 'x'.repeat(600), html: '<a href="x">&</a>' };
    for (let i = 0; i < 300; i++) {
      const r = await call(path, {
        method: 'POST',
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `cm-${i}`, labels: { n: String(i % 3) } },
          data,
        },
      });
      assert.equal(r.status, 201);
    }
  });
  after(() => server.stop());

  it('a get is the same object as pretty JSON and YAML say, compact and newline-terminated', async () => {
    const compact = await call(`${path}/cm-7`);
    assert.equal(compact.status, 200);
    assert.equal(compact.headers['content-type'], 'application/json');
    assert.equal(Number(compact.headers['content-length']), compact.body.length);
    const text = compact.body.toString();
    assert.ok(text.endsWith('}\n') && !text.slice(0, -1).includes('\n'));
    assert.ok(
      text.includes('\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e'),
      'HTML escaped as Go does',
    );
    const pretty = await call(`${path}/cm-7?pretty=true`);
    const yaml = await call(`${path}/cm-7`, { headers: { accept: 'application/yaml' } });
    assert.deepEqual(json(compact), json(pretty));
    assert.deepEqual(json(compact), parseYAML(yaml.body.toString()));
    const obj = json(compact) as { metadata: { resourceVersion: string; name: string } };
    assert.equal(obj.metadata.name, 'cm-7');
    assert.match(obj.metadata.resourceVersion, /^\d+$/);
  });

  it('a write answers with the JSON it stored: the bytes a get then returns', async () => {
    const created = await call(path, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'echo' }, data: { a: '<b>' } },
    });
    assert.equal(created.status, 201);
    const got = await call(`${path}/echo`);
    assert.ok(created.body.equals(got.body), `${created.body.toString()} != ${got.body.toString()}`);
    const updated = await call(`${path}/echo`, {
      method: 'PUT',
      body: { ...(json(got) as object), data: { a: 'c' } },
    });
    assert.equal(updated.status, 200);
    assert.ok(updated.body.equals((await call(`${path}/echo`)).body));
  });

  it('a missing object is the NotFound Status', async () => {
    const r = await call(`${path}/nope`);
    assert.equal(r.status, 404);
    assert.deepEqual(json(r), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'configmaps' },
      code: 404,
    });
  });

  it('a large list streams gzipped when accepted, and is the list pretty JSON gives', async () => {
    const zipped = await call(path, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    const list = JSON.parse(gunzipSync(zipped.body).toString()) as { kind: string; items: unknown[] };
    assert.equal(list.kind, 'ConfigMapList');
    assert.equal(
      list.items.filter((i) => /^cm-/.test((i as { metadata: { name: string } }).metadata.name)).length,
      300,
    );
    const plain = await call(path);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(Number(plain.headers['content-length']), plain.body.length);
    const pretty = await call(`${path}?pretty=true`);
    assert.deepEqual(list, json(plain));
    assert.deepEqual(json(plain), json(pretty));
  });

  it('selectors, pages and an empty list keep their shape', async () => {
    const selected = json(await call(`${path}?labelSelector=n%3D1&limit=5`)) as {
      metadata: { continue?: string };
      items: { metadata: { labels: { n: string } } }[];
    };
    assert.equal(selected.items.length, 5);
    assert.ok(selected.items.every((i) => i.metadata.labels.n === '1'));
    assert.ok((selected.metadata.continue ?? '') !== '');
    const empty = await call('/api/v1/namespaces/kube-public/configmaps?labelSelector=none%3Dhere');
    assert.deepEqual((json(empty) as { items: unknown }).items, []);
  });

  it('a watch frames the stored JSON of each change', async () => {
    const at = (json(await call(`${path}/cm-1`)) as { metadata: { resourceVersion: string } }).metadata
      .resourceVersion;
    const watched = call(
      `${path}?watch=1&resourceVersion=${at}&timeoutSeconds=1&fieldSelector=metadata.name%3Dcm-1`,
    );
    const changed = await call(`${path}/cm-1`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { metadata: { labels: { changed: 'yes' } } },
    });
    assert.equal(changed.status, 200);
    const lines = (await watched).body
      .toString()
      .split('\n')
      .filter((l) => l !== '');
    const events = lines.map((l) => JSON.parse(l) as { type: string; object: unknown });
    assert.deepEqual(events[0], { type: 'MODIFIED', object: json(changed) });
  });
});
