// Several replicas, one cluster (issue 25): a 3-member etcd on loopback and three Capstan replicas
// started together on 127.0.0.1-3 with one PKI directory (`capstan pki`). One admin kubeconfig
// verifies and authenticates against each; a service account token made through one is accepted by
// the others; an idle cluster writes nothing to etcd; the `kubernetes` endpoints list the three;
// after kill -9 of the controllers' Lease holder another replica takes the Lease, finalizes a
// deleted namespace and drops the dead replica from the endpoints; a replica with another CA refuses
// to start. Leader election and the master lease TTL are shortened by their flags (the defaults are
// checked to be client-go's). This file may take up to 60 s (issue 25's 30 s idle window).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFlags } from '../../src/cmd/capstan.js';
import { runPKICommand } from '../../src/cmd/pki-command.js';
import {
  etcdMissing,
  startEtcdCluster,
  type EtcdProcess,
} from '../../src/storage/backends/etcd3/testing/etcd-process.js';
import { freePort, startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

interface Credentials {
  readonly ca: string;
  readonly cert?: string;
  readonly key?: string;
  readonly token?: string;
}

function call(
  url: string,
  creds: Credentials,
  opts: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: opts.method ?? 'GET',
        ca: creds.ca,
        ...(creds.cert === undefined ? {} : { cert: creds.cert, key: creds.key }),
        headers: {
          'content-type': 'application/json',
          ...(creds.token === undefined ? {} : { authorization: `Bearer ${creds.token}` }),
        },
        timeout: 5000,
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            body = { text };
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body === undefined ? undefined : JSON.stringify(opts.body));
  });
}

/** Polls `probe` every 200 ms until it returns a value or `ms` pass. */
async function waitFor<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err instanceof Error ? err.message : JSON.stringify(err);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${last === '' ? '' : `: ${last}`}`);
}

/** The keys etcd holds that were written after `revision` (an idle cluster's failure names them). */
async function keysWrittenAfter(endpoint: string, revision: number): Promise<string[]> {
  const zero = Buffer.from([0]).toString('base64');
  const res = await fetch(`${endpoint}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({ key: zero, range_end: zero, keys_only: true, min_mod_revision: revision + 1 }),
  });
  const body = (await res.json()) as { kvs?: { key: string }[] };
  return (body.kvs ?? []).map((kv) => Buffer.from(kv.key, 'base64').toString());
}

/** etcd's revision through its JSON gateway (reads do not change it). */
async function etcdRevision(endpoint: string): Promise<number> {
  const res = await fetch(`${endpoint}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({ key: Buffer.from('/registry/none').toString('base64') }),
  });
  const body = (await res.json()) as { header: { revision: string } };
  return Number(body.header.revision);
}

const hosts = ['127.0.0.1', '127.0.0.2', '127.0.0.3'] as const;
const shortTimings = [
  '--leader-elect-lease-duration=4s',
  '--leader-elect-renew-deadline=3s',
  '--leader-elect-retry-period=1s',
  '--endpoint-reconciler-lease-ttl=3s',
];

describe('several replicas on one etcd with one PKI directory', { timeout: 120_000 }, () => {
  let etcd: EtcdProcess | undefined;
  let pkiDir = '';
  let otherPkiDir = '';
  let admin: Credentials = { ca: '' };
  const replicas: CapstanProcess[] = [];
  /** Why the cases that need etcd skip, when it is missing on this machine. */
  let skipped: string | undefined;

  const flagsFor = (dir: string): string[] => [
    '--storage-backend=etcd3',
    `--etcd-servers=${etcd?.endpoints.join(',') ?? ''}`,
    `--pki-dir=${dir}`,
    ...shortTimings,
  ];

  before(async () => {
    skipped = etcdMissing();
    if (skipped !== undefined) return;
    pkiDir = await mkdtemp(join(tmpdir(), 'capstan-pki-'));
    otherPkiDir = await mkdtemp(join(tmpdir(), 'capstan-pki-other-'));
    const io = { stdout: { write: () => true }, stderr: process.stderr };
    const [code, otherCode] = await Promise.all([
      runPKICommand(['--dir', pkiDir, '--san', hosts.join(',')], io),
      runPKICommand(['--dir', otherPkiDir, '--san', '127.0.0.4'], io),
    ]);
    assert.equal(code, 0);
    assert.equal(otherCode, 0);
    const [ca, cert, key] = await Promise.all(
      ['ca.crt', 'admin.crt', 'admin.key'].map((f) => readFile(join(pkiDir, f), 'utf8')),
    );
    admin = { ca: ca ?? '', cert: cert ?? '', key: key ?? '' };
    // etcd 3.4 before 3.4.31 cannot be asked for watch progress: caches of idle resources learn the
    // store's revision from its periodic progress notifications only (kube recommends 5 s).
    etcd = await startEtcdCluster({ size: 3, progressNotifyInterval: '1s' });
    const port = await freePort();
    // Started together: their bootstrap steps race, and every one must still become ready.
    replicas.push(
      ...(await Promise.all(
        hosts.map((host) =>
          startCapstanProcess({
            host,
            port,
            readyTimeoutMs: 45_000,
            args: [...flagsFor(pkiDir), `--advertise-address=${host}`],
          }),
        ),
      )),
    );
  });

  after(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await etcd?.stop();
    await Promise.all(
      [pkiDir, otherPkiDir].filter((d) => d !== '').map((d) => rm(d, { recursive: true, force: true })),
    );
  });

  it('takes client-go leader election defaults when no timing is given', async () => {
    const { options } = await readFlags([]);
    assert.deepEqual(options.replicas.leaderElection, {
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
    assert.equal(options.replicas.endpointReconcilerType, 'lease');
  });

  it('is one cluster: shared identity, quiet when idle, endpoints and controllers that follow the replicas', async (t) => {
    if (skipped !== undefined) {
      t.skip(skipped);
      return;
    }
    const urls = replicas.map((r) => r.url);
    const [first, second, third] = urls;
    assert.ok(first !== undefined && second !== undefined && third !== undefined);
    const review = (url: string, creds: Credentials): Promise<Answer> =>
      call(`${url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, creds, {
        method: 'POST',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      });
    const userOf = (a: Answer): { username: string; groups: string[] } =>
      (a.body['status'] as { userInfo: { username: string; groups: string[] } }).userInfo;

    // The one write before the idle window: a service account to make a token for.
    const sa = await call(`${first}/api/v1/namespaces/default/serviceaccounts`, admin, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'replica-test' } },
    });
    assert.equal(sa.status, 201, JSON.stringify(sa.body));

    // Idle once the leader's controllers have done the system namespaces (the CA and the SA).
    await waitFor('the bootstrap done', 25_000, async () => {
      const found = await Promise.all(
        ['default', 'kube-system', 'kube-public', 'kube-node-lease'].flatMap((ns) => [
          call(`${first}/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`, admin),
          call(`${first}/api/v1/namespaces/${ns}/serviceaccounts/default`, admin),
        ]),
      );
      return found.every((a) => a.status === 200) ? true : undefined;
    });
    const endpoint = etcd?.endpoints[0] ?? '';
    let idleStart = Date.now();
    const settled = await waitFor('a quiet store', 10_000, async () => {
      idleStart = Date.now();
      const before = await etcdRevision(endpoint);
      await new Promise((r) => setTimeout(r, 1000));
      return (await etcdRevision(endpoint)) === before ? before : undefined;
    });

    // Within the idle window (reads only): a replica with another CA is refused (it only reads) ...
    const refusing = startCapstanProcess({
      host: '127.0.0.4',
      readyTimeoutMs: 30_000,
      args: [...flagsFor(otherPkiDir), '--advertise-address=127.0.0.4'],
    }).then(
      async (p) => {
        await p.stop();
        return 'started';
      },
      (err: unknown) => String(err),
    );

    // ... one admin kubeconfig (CA and client certificate) verifies and authenticates against each ...
    for (const url of urls) {
      const answer = await review(url, admin);
      assert.equal(answer.status, 201, `${url}: ${JSON.stringify(answer.body)}`);
      assert.equal(userOf(answer).username, 'kubernetes-admin');
      assert.ok(userOf(answer).groups.includes('system:masters'));
    }

    // ... a token made through one replica is accepted by the others ...
    const tr = await call(`${first}/api/v1/namespaces/default/serviceaccounts/replica-test/token`, admin, {
      method: 'POST',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
    });
    assert.equal(tr.status, 201, JSON.stringify(tr.body));
    const token = (tr.body['status'] as { token: string }).token;
    for (const url of [second, third]) {
      const answer = await review(url, { ca: admin.ca, token });
      assert.equal(answer.status, 201, `${url}: ${JSON.stringify(answer.body)}`);
      assert.equal(userOf(answer).username, 'system:serviceaccount:default:replica-test');
    }

    // ... the kubernetes endpoints list the three replicas ...
    const endpointIPs = async (url: string): Promise<string[]> => {
      const ep = await call(`${url}/api/v1/namespaces/default/endpoints/kubernetes`, admin);
      const subsets = (ep.body['subsets'] ?? []) as {
        addresses?: { ip: string }[];
        ports?: { port: number }[];
      }[];
      return subsets
        .flatMap((s) => (s.addresses ?? []).map((a) => `${a.ip}:${s.ports?.[0]?.port ?? 0}`))
        .sort();
    };
    const port = new URL(first).port;
    assert.deepEqual(
      await endpointIPs(third),
      hosts.map((h) => `${h}:${port}`),
    );

    // ... and one replica holds the controllers' Lease (client-go's fields).
    const leaseURL = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/capstan-controller-manager';
    const lease = await call(`${second}${leaseURL}`, admin);
    assert.equal(lease.status, 200, JSON.stringify(lease.body));
    const spec = lease.body['spec'] as Record<string, unknown>;
    assert.equal(spec['leaseDurationSeconds'], 4);
    assert.match(String(spec['renewTime']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.match(String(spec['acquireTime']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const holder = String(spec['holderIdentity']);
    const holderIndex = replicas.findIndex((r) => r.log().includes(holder));
    assert.ok(holderIndex >= 0, `the holder ${holder} is one of the replicas`);

    const refused = await refusing;
    assert.match(refused, /exited with code 1/);
    assert.match(refused, /certificate authority \(sha256:[0-9a-f]+\) differs/);
    await new Promise((r) => setTimeout(r, Math.max(0, 30_000 - (Date.now() - idleStart))));
    assert.equal(
      await etcdRevision(endpoint),
      settled,
      `an idle cluster writes nothing to etcd; written: ${(await keysWrittenAfter(endpoint, settled)).join(', ')}`,
    );

    // kill -9 of the holder: another takes the Lease, finalizes a namespace, drops the dead endpoint.
    const dead = replicas[holderIndex];
    assert.ok(dead?.pid !== undefined);
    const killedAt = Date.now();
    process.kill(dead.pid, 'SIGKILL');
    const survivors = urls.filter((_, i) => i !== holderIndex);
    const live = survivors[0] ?? '';
    const next = await waitFor('a new holder', 20_000, async () => {
      const l = await call(`${live}${leaseURL}`, admin);
      const s = l.body['spec'] as { holderIdentity?: string; leaseTransitions?: number } | undefined;
      return l.status === 200 && s?.holderIdentity !== holder ? s : undefined;
    });
    assert.ok(Date.now() - killedAt < 20_000);
    assert.equal(next.leaseTransitions, 1);
    assert.notEqual(
      replicas.findIndex((r) => r.log().includes(next.holderIdentity ?? '?')),
      holderIndex,
    );
    const ns = await call(`${live}/api/v1/namespaces`, admin, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'after-failover' } },
    });
    assert.equal(ns.status, 201, JSON.stringify(ns.body));
    await call(`${live}/api/v1/namespaces/after-failover/configmaps`, admin, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
    });
    assert.equal(
      (await call(`${live}/api/v1/namespaces/after-failover`, admin, { method: 'DELETE' })).status,
      200,
    );
    const deadHost = hosts[holderIndex] ?? '';
    await Promise.all([
      waitFor('the namespace finalized', 30_000, async () =>
        (await call(`${survivors[1] ?? ''}/api/v1/namespaces/after-failover`, admin)).status === 404
          ? true
          : undefined,
      ),
      waitFor('the dead replica out of the endpoints', 15_000, async () => {
        const ips = await endpointIPs(live);
        return ips.length === 2 && !ips.some((ip) => ip.startsWith(`${deadHost}:`)) ? ips : undefined;
      }),
    ]);
  });
});
