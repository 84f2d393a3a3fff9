// The requestObject of audit events at level Request, as kube-apiserver 1.33 writes it: a decoded
// create, update or delete-collection body as LogRequestObject encodes it; a patch as the bytes the
// client sent, compacted as Go's encoder writes a runtime.Unknown (LogRequestPatch); nothing for a
// body that fails to decode, nor for an apply patch in YAML (on which kube's encoder fails).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';

const token = 'audit-object-token-51d2';

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Request
  resources: [{ group: "", resources: [configmaps] }]
  omitManagedFields: true
- level: None
`;

const collection = '/api/v1/namespaces/default/configmaps';

describe('audit requestObject at level Request', () => {
  let dir: string;
  let server: InProcessServer;
  let logPath: string;

  /** Sends `body` as it is written (raw bytes, no re-encoding) under the Audit-ID `id`. */
  const send = async (
    id: string,
    req: { method: string; path: string; contentType: string; body: string },
  ): Promise<number> => {
    const res = await fetch(`${server.url}${req.path}`, {
      method: req.method,
      headers: { authorization: `Bearer ${token}`, 'content-type': req.contentType, 'audit-id': id },
      body: req.body,
    });
    await res.arrayBuffer();
    return res.status;
  };

  /** The log line of the request's ResponseComplete event, as written. */
  const lineOf = async (id: string): Promise<string> => {
    const lines = (await readFile(logPath, 'utf8'))
      .split('\n')
      .filter((l) => l.includes(`"auditID":${JSON.stringify(id)}`));
    assert.equal(lines.length, 1, `one event for ${id}`);
    const [line] = lines as [string];
    assert.ok(line.includes('"stage":"ResponseComplete"'), line);
    return line;
  };

  /** The requestObject member of a log line, its text as written; undefined when absent. */
  const requestObjectText = (line: string): string | undefined => {
    const at = line.indexOf('"requestObject":');
    if (at === -1) return undefined;
    const end = line.indexOf(',"requestReceivedTimestamp":', at);
    return line.slice(at + '"requestObject":'.length, end);
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-audit-object-'));
    logPath = join(dir, 'audit.log');
    await writeFile(join(dir, 'policy.yaml'), policy);
    await writeFile(join(dir, 'tokens.csv'), `${token},root,u-root,system:masters\n`);
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
      o.storage.dataDir = dir;
      o.tokenAuthFile = join(dir, 'tokens.csv');
      o.auditPolicyFile = join(dir, 'policy.yaml');
      o.auditLogPath = logPath;
    });
    const created = await send('setup', {
      method: 'POST',
      path: collection,
      contentType: 'application/json',
      body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p"},"data":{"a":"1"}}',
    });
    assert.equal(created, 201);
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('logs the patches as their bytes, compacted: order, numbers and escapes kept', async () => {
    const cases: { id: string; contentType: string; body: string; want: string }[] = [
      {
        id: 'merge-patch',
        contentType: 'application/merge-patch+json',
        // An unknown field carries the numbers: the patch applies, with a warning.
        body:
          '{\n  "data": {"10": "x", "9": "y"},\n  "metadata": {"annotations": {"h": "<b>&\\u00e9\u2028"}},\n' +
          '  "extra": {"n": 1.50, "e": 1e3, "z": -0.0}\n}\n',
        want:
          '{"data":{"10":"x","9":"y"},"metadata":{"annotations":{"h":"\\u003cb\\u003e\\u0026\\u00e9\\u2028"}},' +
          '"extra":{"n":1.50,"e":1e3,"z":-0.0}}',
      },
      {
        id: 'json-patch',
        contentType: 'application/json-patch+json',
        body: '[ { "op": "add", "path": "/data/j", "value": "2" },\n  { "op": "test", "path": "/data/a", "value": "1" } ]',
        want: '[{"op":"add","path":"/data/j","value":"2"},{"op":"test","path":"/data/a","value":"1"}]',
      },
      {
        id: 'strategic-merge-patch',
        contentType: 'application/strategic-merge-patch+json',
        body: '{ "data" : { "s" : "3", "10": "t", "9": "u" } }',
        want: '{"data":{"s":"3","10":"t","9":"u"}}',
      },
      {
        id: 'apply-as-json',
        contentType: 'application/apply-patch+yaml',
        body: '{ "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "p"}, "data": {"k": "4"} }',
        want: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p"},"data":{"k":"4"}}',
      },
    ];
    for (const c of cases) {
      const path = `${collection}/p${c.contentType.startsWith('application/apply') ? '?fieldManager=t' : ''}`;
      const status = await send(c.id, { method: 'PATCH', path, contentType: c.contentType, body: c.body });
      assert.equal(status, 200, c.id);
      assert.equal(requestObjectText(await lineOf(c.id)), c.want, c.id);
    }
  });

  it('logs nothing for an apply patch in YAML (kube 1.33 cannot encode such an event)', async () => {
    const status = await send('apply-yaml', {
      method: 'PATCH',
      path: `${collection}/p?fieldManager=y`,
      contentType: 'application/apply-patch+yaml',
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: p\ndata:\n  y: "5"\n',
    });
    assert.equal(status, 200);
    assert.equal(requestObjectText(await lineOf('apply-yaml')), undefined);
  });

  it('logs nothing for a create whose body does not decode', async () => {
    const status = await send('bad-create', {
      method: 'POST',
      path: collection,
      contentType: 'application/json',
      body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bad"},"data":{"a":1}}',
    });
    assert.equal(status, 400);
    const line = await lineOf('bad-create');
    assert.ok(line.includes('"code":400'), line);
    assert.equal(requestObjectText(line), undefined);
  });

  it('logs a create, an update and a delete-collection body as decoded, in Go’s member order', async () => {
    const create = await send('create', {
      method: 'POST',
      path: collection,
      contentType: 'application/json',
      body: '{"data": {"9": "y", "10": "x"}, "metadata": {"name": "u"}, "kind": "ConfigMap", "apiVersion": "v1"}',
    });
    assert.equal(create, 201);
    assert.equal(
      requestObjectText(await lineOf('create')),
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"u","creationTimestamp":null},"data":{"10":"x","9":"y"}}',
    );
    const update = await send('update', {
      method: 'PUT',
      path: `${collection}/u`,
      contentType: 'application/json',
      body: '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "u"}, "data": {"b": "2"}}',
    });
    assert.equal(update, 200);
    assert.equal(
      requestObjectText(await lineOf('update')),
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"u","creationTimestamp":null},"data":{"b":"2"}}',
    );
    const deleted = await send('delete-collection', {
      method: 'DELETE',
      path: `${collection}?labelSelector=none%3Dnone`,
      contentType: 'application/json',
      body: '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}',
    });
    assert.equal(deleted, 200);
    const options = JSON.parse(requestObjectText(await lineOf('delete-collection')) ?? 'null') as unknown;
    assert.deepEqual(options, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
  });
});
