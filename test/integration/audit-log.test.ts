// The audit log of a short session against an in-process server with --audit-policy-file and
// --audit-log-path: create, get, patch, delete, a denied request, an impersonated one and a watch,
// each with the events and members kube writes at its level.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import type { AuditEvent } from '../../src/server/audit/types.js';

const rootToken = 'root-token-4c1f';
const janeToken = 'jane-token-9a2e';

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
- level: RequestResponse
  resources: [{ group: "", resources: [configmaps] }]
  omitManagedFields: true
- level: Request
  verbs: [watch]
  omitStages: [ResponseComplete]
- level: Metadata
`;

describe('audit log', () => {
  let dir: string;
  let server: InProcessServer;
  let logPath: string;

  const call = async (
    path: string,
    init: { token: string; method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response> =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.token}`,
        'content-type': init.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
        'user-agent': 'audit-test/1.0',
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  const events = async (): Promise<AuditEvent[]> =>
    (await readFile(logPath, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as AuditEvent);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-audit-'));
    logPath = join(dir, 'audit.log');
    await writeFile(join(dir, 'policy.yaml'), policy);
    await writeFile(
      join(dir, 'tokens.csv'),
      `${rootToken},root,u-root,system:masters\n${janeToken},jane,u-jane\n`,
    );
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
      o.storage.dataDir = dir;
      o.authorizationModes = ['RBAC'];
      o.tokenAuthFile = join(dir, 'tokens.csv');
      o.auditPolicyFile = join(dir, 'policy.yaml');
      o.auditLogPath = logPath;
    });
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the session as kube does at each level', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'audited' }, data: { a: '1' } };
    const created = await call('/api/v1/namespaces/default/configmaps', {
      token: rootToken,
      method: 'POST',
      body: cm,
    });
    assert.equal(created.status, 201);
    const auditID = created.headers.get('audit-id') ?? '';
    assert.match(auditID, /^[0-9a-f-]{36}$/);
    const given = await call('/api/v1/namespaces/default/configmaps/audited', {
      token: rootToken,
      headers: { 'audit-id': 'client-chosen-id' },
    });
    assert.equal(given.headers.get('audit-id'), 'client-chosen-id');
    const patched = await call('/api/v1/namespaces/default/configmaps/audited', {
      token: rootToken,
      method: 'PATCH',
      body: { data: { b: '2' } },
    });
    assert.equal(patched.status, 200);
    assert.equal(
      (await call('/api/v1/namespaces/default/configmaps/audited', { token: rootToken, method: 'DELETE' }))
        .status,
      200,
    );
    const denied = await call('/api/v1/namespaces/default/secrets', { token: janeToken });
    assert.equal(denied.status, 403);
    const impersonated = await call('/api/v1/namespaces/default/pods', {
      token: rootToken,
      headers: { 'impersonate-user': 'jane' },
    });
    assert.equal(impersonated.status, 403);
    const watch = await call('/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1', {
      token: rootToken,
    });
    assert.equal(watch.status, 200);
    await watch.text();
    assert.equal((await call('/healthz', { token: rootToken })).status, 200);

    const log = await events();
    const byURI = (uri: string): AuditEvent[] => log.filter((e) => e.requestURI === uri);
    assert.deepEqual(byURI('/healthz'), []);
    assert.ok(log.every((e) => e.stage !== 'RequestReceived'));
    assert.ok(!JSON.stringify(log).includes(rootToken) && !JSON.stringify(log).includes(janeToken));

    const create = log.find((e) => e.auditID === auditID);
    assert.ok(create !== undefined);
    assert.deepEqual(Object.keys(create), [
      'kind',
      'apiVersion',
      'level',
      'auditID',
      'stage',
      'requestURI',
      'verb',
      'user',
      'sourceIPs',
      'userAgent',
      'objectRef',
      'responseStatus',
      'requestObject',
      'responseObject',
      'requestReceivedTimestamp',
      'stageTimestamp',
      'annotations',
    ]);
    assert.equal(create.level, 'RequestResponse');
    assert.equal(create.stage, 'ResponseComplete');
    assert.equal(create.verb, 'create');
    assert.deepEqual(create.user, {
      username: 'root',
      uid: 'u-root',
      groups: ['system:masters', 'system:authenticated'],
    });
    assert.deepEqual(create.sourceIPs, ['127.0.0.1']);
    assert.equal(create.userAgent, 'audit-test/1.0');
    // kube's LogRequestObject names the created object in objectRef (from the body, not the URL).
    assert.deepEqual(create.objectRef, {
      resource: 'configmaps',
      namespace: 'default',
      name: 'audited',
      apiVersion: 'v1',
    });
    assert.deepEqual(create.responseStatus, { metadata: {}, code: 201 });
    // kube's LogRequestObject encodes the decoded ConfigMap: Go's order, the zero time Go writes.
    assert.deepEqual(create.requestObject, {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'audited', creationTimestamp: null },
      data: { a: '1' },
    });
    const createLine = (await readFile(logPath, 'utf8')).split('\n').find((l) => l.includes(auditID));
    assert.ok(
      createLine?.includes(
        '"requestObject":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"audited","creationTimestamp":null},"data":{"a":"1"}}',
      ),
      createLine,
    );
    const responseObject = create.responseObject as { metadata: Record<string, unknown>; data: unknown };
    assert.deepEqual(responseObject.data, { a: '1' });
    assert.equal('managedFields' in responseObject.metadata, false);
    assert.equal(create.annotations?.['authorization.k8s.io/decision'], 'allow');
    assert.match(create.requestReceivedTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.ok(create.stageTimestamp >= create.requestReceivedTimestamp);

    const named = byURI('/api/v1/namespaces/default/configmaps/audited');
    assert.equal(named.length, 3);
    const [get, patch, del] = named as [AuditEvent, AuditEvent, AuditEvent];
    assert.equal(get.auditID, 'client-chosen-id');
    assert.deepEqual([get.verb, patch.verb, del.verb], ['get', 'patch', 'delete']);
    assert.deepEqual(patch.requestObject, { data: { b: '2' } });
    assert.deepEqual(patch.objectRef, {
      resource: 'configmaps',
      namespace: 'default',
      name: 'audited',
      apiVersion: 'v1',
    });

    const [forbidden] = byURI('/api/v1/namespaces/default/secrets');
    assert.equal(forbidden?.level, 'Metadata');
    assert.equal(forbidden.requestObject, undefined);
    assert.deepEqual(forbidden.responseStatus, {
      metadata: {},
      status: 'Failure',
      message:
        'secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { kind: 'secrets' },
      code: 403,
    });
    assert.equal(forbidden.annotations?.['authorization.k8s.io/decision'], 'forbid');

    const [asJane] = byURI('/api/v1/namespaces/default/pods');
    assert.equal(asJane?.user.username, 'root');
    assert.deepEqual(asJane.impersonatedUser, { username: 'jane', groups: ['system:authenticated'] });
    assert.equal(asJane.responseStatus?.code, 403);

    const watchEvents = byURI('/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1');
    assert.deepEqual(
      watchEvents.map((e) => [e.stage, e.level, e.verb, e.responseStatus?.code]),
      [['ResponseStarted', 'Request', 'watch', 200]],
    );
  });

  it('counts events, levels and refusals on /metrics as kube (apiserver_audit_*)', async () => {
    const scrape = async (): Promise<Map<string, number>> => {
      const text = await (await call('/metrics', { token: rootToken })).text();
      const samples = new Map<string, number>();
      for (const line of text.split('\n'))
        if (line.startsWith('apiserver_audit_')) {
          const at = line.lastIndexOf(' ');
          samples.set(line.slice(0, at), Number(line.slice(at + 1)));
        }
      return samples;
    };
    const before = await scrape();
    const lines = (await events()).length;
    // RequestResponse (1 event), None (none), Metadata (1), a bad token: Metadata (1 event).
    assert.equal((await call('/api/v1/namespaces/default/configmaps', { token: rootToken })).status, 200);
    assert.equal((await call('/healthz', { token: rootToken })).status, 200);
    assert.equal((await call('/api/v1/namespaces/default/pods', { token: rootToken })).status, 200);
    assert.equal((await call('/api/v1/namespaces', { token: 'forged' })).status, 401);
    const after = await scrape();
    const delta = (name: string): number => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    // The first scrape's own event is written once it has answered: counted in the second.
    assert.equal(delta('apiserver_audit_event_total'), 4);
    assert.equal((await events()).length - lines, 4);
    assert.equal(delta('apiserver_audit_level_total{level="RequestResponse"}'), 1);
    assert.equal(delta('apiserver_audit_level_total{level="None"}'), 1);
    // The second scrape is one of them: its level is counted before it answers.
    assert.equal(delta('apiserver_audit_level_total{level="Metadata"}'), 3);
    assert.equal(after.get('apiserver_audit_requests_rejected_total'), 0);
    assert.equal(after.has('apiserver_audit_error_total{plugin="log"}'), false);
  });
});
