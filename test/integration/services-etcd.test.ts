// Two Capstan servers on one etcd allocate service IPs and node ports from the same bitmaps
// (/registry/ranges/serviceips, /registry/ranges/servicenodeports): concurrent creates on both never
// collide, both see one `kubernetes` service, and a third server started later keeps every allocation.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { writePKIDir } from '../../src/server/tls/pki-dir.js';
import { describeWithEtcd } from '../../src/storage/backends/etcd3/testing/describe-with-etcd.js';

async function call(
  server: CapstanServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const services = '/api/v1/namespaces/default/services';

const nodePortService = (name: string): unknown => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { type: 'NodePort', ports: [{ port: 80 }], selector: { app: name } },
});

describeWithEtcd('services on two servers sharing etcd', (fx) => {
  it('never hands out one IP or node port twice, and a later server keeps them', async (t) => {
    const etcdServers = fx.etcd().endpoints;
    // Servers of one cluster share its identity (a replica with other keys refuses to start).
    const pkiDir = await mkdtemp(join(tmpdir(), 'capstan-svc-pki-'));
    t.after(() => rm(pkiDir, { recursive: true, force: true }));
    await writePKIDir({ dir: pkiDir, sans: [], server: 'https://127.0.0.1:6443' });
    const start = (): Promise<CapstanServer> =>
      startCapstan({ storage: 'etcd3', etcdServers, etcdPrefix: '/svc-test', scheme: 'http', pkiDir });
    const one = await start();
    const two = await start();
    let three: CapstanServer | undefined;
    try {
      const made = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call(i % 2 === 0 ? one : two, 'POST', services, nodePortService(`s${i}`)),
        ),
      );
      for (const r of made) assert.equal(r.status, 201, JSON.stringify(r.body));
      const specs = made.map((r) => r.body.spec as { clusterIP: string; ports: { nodePort: number }[] });
      assert.equal(new Set(specs.map((s) => s.clusterIP)).size, 30);
      assert.equal(new Set(specs.map((s) => s.ports[0]?.nodePort)).size, 30);
      for (const server of [one, two]) {
        const k = await call(server, 'GET', `${services}/kubernetes`);
        assert.equal((k.body.spec as { clusterIP: string }).clusterIP, '10.0.0.1');
      }
      await one.stop();
      three = await start();
      const taken = specs[7]?.clusterIP ?? '';
      const again = await call(three, 'POST', services, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'again' },
        spec: { clusterIP: taken, ports: [{ port: 80 }] },
      });
      assert.equal(again.status, 422);
      assert.equal(
        again.body.message,
        `Service "again" is invalid: spec.clusterIPs: Invalid value: ["${taken}"]: failed to allocate IP ${taken}: provided IP is already allocated`,
      );
    } finally {
      await Promise.allSettled([one.stop(), two.stop(), three?.stop()]);
    }
  });
});
