// Times the server writes come from its clock, not the system's: on a virtual clock a day ahead,
// a namespace's deletionTimestamp and the namespace controller's waits, a PersistentVolume's phase
// transition, a CSR's condition stamps, a FlowSchema's Dangling condition and a table's AGE column.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
let token: string;
before(async () => {
  server = await startCapstan({ scheme: 'http', clock: 'virtual' });
  token = server.kubeConfig.users[0]?.user.token ?? '';
  await server.clock.advance('24h');
});
after(() => server.stop());

type Obj = Record<string, unknown> & {
  metadata?: { deletionTimestamp?: string; creationTimestamp?: string; resourceVersion?: string };
  status?: Record<string, unknown>;
};

async function call(
  method: string,
  path: string,
  body?: unknown,
  accept?: string,
): Promise<{ code: number; body: Obj }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(accept === undefined ? {} : { accept }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { code: res.status, body: (await res.json()) as Obj };
}

/** The virtual clock's time as the API writes it (whole seconds). */
const clockSeconds = (): number => Math.floor(server.clock.now() / 1000) * 1000;

/** Far from the system's time: the value came from the virtual clock. */
function assertClockTime(stamp: unknown, what: string): void {
  assert.equal(typeof stamp, 'string', `${what} is set`);
  const ms = Date.parse(stamp as string);
  assert.ok(Math.abs(ms - clockSeconds()) <= 1000, `${what} ${String(stamp)} is the server's time`);
  assert.ok(ms > Date.now() + 23 * 3_600_000, `${what} is a day ahead of the system clock`);
}

describe('timestamps on the virtual clock', () => {
  it('deletes a namespace on the clock: its deletionTimestamp, and the controller waits', async () => {
    assert.equal((await call('POST', '/api/v1/namespaces', { metadata: { name: 'clocked' } })).code, 201);
    const deleted = await call('DELETE', '/api/v1/namespaces/clocked');
    assert.equal(deleted.code, 200);
    assertClockTime(deleted.body.metadata?.deletionTimestamp, 'deletionTimestamp');
    // The controller starts 5 s after it sees the deletion, on the server's clock: moving the clock
    // a second per look finishes it well within those 5 s of the system's time.
    const started = performance.now();
    await waitFor(
      'the namespace gone',
      async () => {
        await server.clock.advance('1s');
        return (await call('GET', '/api/v1/namespaces/clocked')).code;
      },
      (code) => code === 404,
      4500,
    );
    assert.ok(performance.now() - started < 4500);
  });

  it("stamps a pod's PodScheduled condition when it is bound", async () => {
    const pod = {
      metadata: { name: 'clocked-pod' },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    };
    // The service accounts controller makes `default` soon after the namespace exists.
    await waitFor(
      'the pod created',
      async () => (await call('POST', '/api/v1/namespaces/default/pods', pod)).code,
      (code) => code === 201 || code === 409,
    );
    const bound = await call('POST', '/api/v1/namespaces/default/pods/clocked-pod/binding', {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'clocked-pod' },
      target: { kind: 'Node', name: 'node-1' },
    });
    assert.equal(bound.code, 201, JSON.stringify(bound.body));
    const got = await call('GET', '/api/v1/namespaces/default/pods/clocked-pod');
    const conditions = got.body.status?.['conditions'] as { type: string; lastTransitionTime?: string }[];
    assertClockTime(conditions.find((c) => c.type === 'PodScheduled')?.lastTransitionTime, 'PodScheduled');
  });

  it("stamps an evicted pod's DisruptionTarget condition and its deletion", async () => {
    await server.clock.advance('1h');
    const evicted = await call('POST', '/api/v1/namespaces/default/pods/clocked-pod/eviction', {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'clocked-pod' },
    });
    assert.equal(evicted.code, 201, JSON.stringify(evicted.body));
    const got = await call('GET', '/api/v1/namespaces/default/pods/clocked-pod');
    const conditions = got.body.status?.['conditions'] as { type: string; lastTransitionTime?: string }[];
    assertClockTime(
      conditions.find((c) => c.type === 'DisruptionTarget')?.lastTransitionTime,
      'DisruptionTarget',
    );
    // Bound to a node, the pod goes gracefully: 30 s from the server's now.
    assert.equal(Date.parse(got.body.metadata?.deletionTimestamp ?? ''), clockSeconds() + 30_000);
  });

  it("stamps a PersistentVolume's phase transition", async () => {
    const pv = await call('POST', '/api/v1/persistentvolumes', {
      metadata: { name: 'clocked-pv' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        hostPath: { path: '/tmp/pv' },
      },
    });
    assert.equal(pv.code, 201);
    assertClockTime(pv.body.status?.['lastPhaseTransitionTime'], 'lastPhaseTransitionTime');
  });

  it("stamps a CertificateSigningRequest's approval", async () => {
    // A PKCS#10 request for CN=clocked, made once with openssl.
    const request = Buffer.from(csrPem).toString('base64');
    const created = await call('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      metadata: { name: 'clocked-csr' },
      spec: { request, signerName: 'example.com/clocked', usages: ['digital signature'] },
    });
    assert.equal(created.code, 201, JSON.stringify(created.body));
    await server.clock.advance('1h');
    const approved = await call(
      'PUT',
      '/apis/certificates.k8s.io/v1/certificatesigningrequests/clocked-csr/approval',
      {
        ...created.body,
        status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Tested', message: 'ok' }] },
      },
    );
    assert.equal(approved.code, 200, JSON.stringify(approved.body));
    const [condition] = approved.body.status?.['conditions'] as (Record<string, unknown> | undefined)[];
    assertClockTime(condition?.['lastUpdateTime'], 'lastUpdateTime');
    assertClockTime(condition?.['lastTransitionTime'], 'lastTransitionTime');
  });

  it("stamps a FlowSchema's Dangling condition", async () => {
    const created = await call('POST', '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas', {
      metadata: { name: 'clocked-fs' },
      spec: {
        priorityLevelConfiguration: { name: 'no-such-level' },
        matchingPrecedence: 5000,
        rules: [
          {
            subjects: [{ kind: 'User', user: { name: 'nobody' } }],
            nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/clocked'] }],
          },
        ],
      },
    });
    assert.equal(created.code, 201, JSON.stringify(created.body));
    const fs = await waitFor(
      'the Dangling condition',
      async () => (await call('GET', '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas/clocked-fs')).body,
      (o) => Array.isArray(o.status?.['conditions']),
    );
    const [condition] = fs.status?.['conditions'] as (Record<string, unknown> | undefined)[];
    assert.equal(condition?.['type'], 'Dangling');
    assertClockTime(condition['lastTransitionTime'], 'lastTransitionTime');
  });

  it("measures a table's AGE on the clock", async () => {
    assert.equal(
      (await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'aged' } })).code,
      201,
    );
    await server.clock.advance('3h');
    const table = await call(
      'GET',
      '/api/v1/namespaces/default/configmaps/aged',
      undefined,
      'application/json;as=Table;v=v1;g=meta.k8s.io',
    );
    const columns = (table.body['columnDefinitions'] as { name: string }[]).map((c) => c.name);
    const [row] = table.body['rows'] as { cells: unknown[] }[];
    assert.equal(row?.cells[columns.indexOf('Age')], '3h');
  });
});

const csrPem = `-----BEGIN CERTIFICATE REQUEST-----
MIHMMHQCAQAwEjEQMA4GA1UEAwwHY2xvY2tlZDBZMBMGByqGSM49AgEGCCqGSM49
AwEHA0IABBL/a6wCxyaJDek9Q+9rwaEz6TQdxuNXdW2u9Wk8r8L77KeTTOHUIjeD
nDoL9XDzKlktPBlrKzV3UDEAdR4puLOgADAKBggqhkjOPQQDAgNIADBFAiEA8vTF
9G0f44N529ihMGV4KMfKnSiOxeNWuBQ+Yqb9Vz0CID4B1stvvhkF3AvJOS0hP9ev
6ZWk3i0QxGM+BI1zr2eT
-----END CERTIFICATE REQUEST-----
`;
