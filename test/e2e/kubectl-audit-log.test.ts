// A kubectl session against one Capstan process with --audit-policy-file and --audit-log-path
// (RBAC on): create, get, patch and delete of a ConfigMap (RequestResponse), a request RBAC denies
// and one impersonated with --as (Metadata), and a --watch ended by its timeout (Request, without
// ResponseComplete); the log has the events kube writes for each at its level, and /metrics counts
// them (apiserver_audit_*).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEvent } from '../../src/server/audit/types.js';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';

const janeToken = 'jane-token-5d21c0';

// Discovery and probes are left out; the rest by resource and verb, as kube matches rules in order.
const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*", "/openapi/*", "/version", "/healthz*", "/readyz*", "/livez*"]
- level: RequestResponse
  resources: [{ group: "", resources: [configmaps] }]
  omitManagedFields: true
- level: Request
  verbs: [watch]
  omitStages: [ResponseComplete]
- level: Metadata
`;

describe('kubectl against capstan: the audit log of a session', () => {
  let dir: string;
  let logPath: string;
  let capstan: CapstanProcess;
  const { kubectl, ok, fails } = kubectlSession(() => capstan.kubeconfigPath);

  const events = async (): Promise<AuditEvent[]> =>
    (await readFile(logPath, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as AuditEvent);

  before(async () => {
    await locateKubectl();
    dir = await mkdtemp(join(tmpdir(), 'capstan-e2e-audit-'));
    logPath = join(dir, 'audit.log');
    await writeFile(join(dir, 'policy.yaml'), policy);
    await writeFile(join(dir, 'tokens.csv'), `${janeToken},jane,u-jane\n`);
    capstan = await startCapstanProcess({
      args: [
        '--storage-backend=memory',
        '--authorization-mode=RBAC',
        `--token-auth-file=${join(dir, 'tokens.csv')}`,
        `--audit-policy-file=${join(dir, 'policy.yaml')}`,
        `--audit-log-path=${logPath}`,
        // 1 MB (kube's unit), past which the session's second part makes the log rotate.
        '--audit-log-maxsize=1',
        '--audit-log-maxbackup=1',
      ],
    });
  });
  after(async () => {
    await capstan.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes each request of the session at its level, as kube does', async () => {
    await ok(['create', 'configmap', 'audited', '--from-literal=a=1', '-n', 'default']);
    await ok(['get', 'configmap', 'audited', '-n', 'default', '-o', 'name']);
    await ok(['patch', 'configmap', 'audited', '-n', 'default', '--type=merge', '-p', '{"data":{"b":"2"}}']);
    await ok(['delete', 'configmap', 'audited', '-n', 'default', '--wait=false']);
    assert.match(await fails([`--token=${janeToken}`, 'get', 'secrets', '-n', 'default']), /Forbidden/);
    assert.match(await fails(['--as=jane', 'get', 'pods', '-n', 'default']), /Forbidden/);
    // The watch ends when its timeout does; kubectl's exit code then does not matter here. The
    // timeout holds for each of kubectl's requests (discovery and the list too): 1 s left a busy
    // machine's kubectl without its watch at times.
    await kubectl(['get', 'pods', '-n', 'default', '--watch', '--request-timeout=3s']);

    const log = await events();
    assert.ok(log.length > 0);
    assert.ok(
      log.every((e) => e.stage !== 'RequestReceived'),
      'RequestReceived is omitted',
    );
    assert.ok(
      !log.some((e) => e.requestURI.startsWith('/api?') || e.requestURI === '/api'),
      'discovery: None',
    );
    assert.ok(!JSON.stringify(log).includes(janeToken), 'no credential is logged');
    const find = (verb: string, resource: string, extra: (e: AuditEvent) => boolean = () => true) =>
      log.filter((e) => e.verb === verb && e.objectRef?.resource === resource && extra(e));

    // RequestResponse: one ResponseComplete each, with the bodies, managedFields left out.
    // kubectl delete reads the object first: gets come from more than `kubectl get`.
    const cm = (verb: string): AuditEvent[] => {
      const all = find(verb, 'configmaps');
      for (const e of all) {
        assert.equal(e.level, 'RequestResponse');
        assert.equal(e.stage, 'ResponseComplete');
        assert.equal(e.user.username, 'capstan-admin');
        assert.match(e.userAgent ?? '', /^kubectl/);
        assert.deepEqual(
          [e.objectRef?.namespace, e.objectRef?.name, e.objectRef?.apiVersion],
          ['default', 'audited', 'v1'],
        );
        assert.equal(e.annotations?.['authorization.k8s.io/decision'], 'allow');
      }
      return all;
    };
    const one = (verb: string): AuditEvent => {
      const [e, ...more] = cm(verb);
      assert.ok(e !== undefined && more.length === 0, `one ${verb} of configmaps`);
      return e;
    };
    const create = one('create');
    assert.equal(create.responseStatus?.code, 201);
    assert.deepEqual((create.requestObject as { data: unknown }).data, { a: '1' });
    const created = create.responseObject as { metadata: Record<string, unknown> };
    assert.equal(created.metadata['name'], 'audited');
    assert.equal('managedFields' in created.metadata, false);
    const gets = cm('get');
    assert.ok(gets.length >= 1);
    for (const get of gets) {
      assert.equal(get.responseStatus?.code, 200);
      assert.equal(get.requestObject, undefined);
      assert.ok(get.responseObject !== undefined);
    }
    const patch = one('patch');
    assert.deepEqual(patch.requestObject, { data: { b: '2' } });
    assert.deepEqual((patch.responseObject as { data: unknown }).data, { a: '1', b: '2' });
    const del = one('delete');
    assert.equal((del.requestObject as { propagationPolicy: string }).propagationPolicy, 'Background');
    // A Status answers a delete: it is the responseStatus too, with the HTTP code.
    const deleted = del.responseStatus;
    assert.ok(deleted !== undefined);
    assert.deepEqual(
      [deleted.status, deleted.details, deleted.code],
      ['Success', (del.responseObject as { details: unknown }).details, 200],
    );

    // Metadata: the denied request, with kube's Status in responseStatus and no bodies.
    const [denied, ...moreDenied] = find('list', 'secrets');
    assert.ok(denied !== undefined && moreDenied.length === 0);
    assert.deepEqual(
      [denied.level, denied.stage, denied.user.username],
      ['Metadata', 'ResponseComplete', 'jane'],
    );
    assert.deepEqual(denied.responseStatus, {
      metadata: {},
      status: 'Failure',
      message:
        'secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { kind: 'secrets' },
      code: 403,
    });
    assert.equal(denied.requestObject, undefined);
    assert.equal(denied.responseObject, undefined);
    assert.equal(denied.annotations?.['authorization.k8s.io/decision'], 'forbid');

    // Metadata: the impersonated one names both users.
    const [asJane, ...moreAsJane] = find('list', 'pods', (e) => e.impersonatedUser !== undefined);
    assert.ok(asJane !== undefined && moreAsJane.length === 0);
    assert.equal(asJane.level, 'Metadata');
    assert.equal(asJane.user.username, 'capstan-admin');
    assert.deepEqual(asJane.impersonatedUser, { username: 'jane', groups: ['system:authenticated'] });
    assert.equal(asJane.responseStatus?.code, 403);

    // The watch: Request level; ResponseStarted only, as the rule omits ResponseComplete; the list
    // kubectl makes first is at Metadata.
    const watches = find('watch', 'pods');
    assert.deepEqual(
      watches.map((e) => [e.level, e.stage, e.responseStatus?.code, e.user.username]),
      [['Request', 'ResponseStarted', 200, 'capstan-admin']],
    );
    const lists = find('list', 'pods', (e) => e.impersonatedUser === undefined);
    assert.deepEqual(
      lists.map((e) => [e.level, e.stage]),
      [['Metadata', 'ResponseComplete']],
    );

    // Every event written is counted on /metrics (the scrape's own is written after it answers).
    const metrics = await ok(['get', '--raw', '/metrics']);
    const total = /^apiserver_audit_event_total (\d+)$/m.exec(metrics)?.[1];
    assert.equal(Number(total), (await events()).length - 1);
    // One event a request at RequestResponse (RequestReceived omitted): as many as the requests.
    const rr = log.filter((e) => e.level === 'RequestResponse').length;
    assert.match(
      metrics,
      new RegExp(`^apiserver_audit_level_total\\{level="RequestResponse"\\} ${rr}$`, 'm'),
    );
    assert.match(metrics, /^apiserver_audit_requests_rejected_total 0$/m);
  });

  it('rotates the log past --audit-log-maxsize, keeping --audit-log-maxbackup backups', async () => {
    // A ConfigMap of 400 KB, logged with its bodies at RequestResponse: its create and four reads
    // write about 2.4 MB, so the log rotates (twice; one backup is kept).
    const data = join(dir, 'big.txt');
    await writeFile(data, 'x'.repeat(400 * 1024));
    await ok(['create', 'configmap', 'big', `--from-file=big=${data}`]);
    for (let i = 0; i < 4; i++) await ok(['get', 'configmap', 'big', '-o', 'name']);
    const files = (await readdir(dir)).filter((f) => f.startsWith('audit')).sort();
    assert.equal(files.length, 2, files.join());
    assert.match(files[0] ?? '', /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/);
    assert.equal(files[1], 'audit.log');
    assert.ok((await stat(logPath)).size <= 1024 * 1024);
  });
});
