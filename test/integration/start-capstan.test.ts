// startCapstan in process: several servers side by side, each with its own port, data dir and
// kubeconfig; HTTPS trusted through the kubeconfig's CA; restarts on one data dir keep CA and token.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstan, type CapstanServer } from '../../src/index.js';

function get(server: CapstanServer, path: string, token?: string): Promise<{ status: number; body: string }> {
  const cluster = server.kubeConfig.clusters[0]?.cluster;
  const ca = Buffer.from(cluster?.['certificate-authority-data'] ?? '', 'base64').toString();
  const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return new Promise((resolve, reject) => {
    request(`${server.url}${path}`, { ca, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
      });
    })
      .on('error', reject)
      .end();
  });
}

const tokenOf = (s: CapstanServer): string => s.kubeConfig.users[0]?.user.token ?? '';

describe('startCapstan', () => {
  it('runs several servers in one process without sharing state', async () => {
    const [a, b] = await Promise.all([startCapstan(), startCapstan()]);
    try {
      assert.notEqual(a.url, b.url);
      assert.notEqual(a.kubeconfigPath, b.kubeconfigPath);
      assert.notEqual(tokenOf(a), tokenOf(b));
      assert.match(a.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      // As kube under AlwaysAllow (anonymous off): /readyz needs credentials.
      assert.equal((await get(a, '/readyz')).status, 401);
      assert.deepEqual(await get(a, '/readyz', tokenOf(a)), { status: 200, body: 'ok' });
      assert.equal((await get(a, '/metrics', tokenOf(b))).status, 401);
      assert.equal((await get(a, '/metrics', tokenOf(a))).status, 200);
      const kubeconfig = await readFile(a.kubeconfigPath, 'utf8');
      assert.match(kubeconfig, /certificate-authority-data: "[A-Za-z0-9+/=]+"/);
      assert.ok(kubeconfig.includes(`server: "${a.url}"`));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    await assert.rejects(access(a.dataDir));
  });

  it('keeps the CA and the admin token across restarts on one data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capstan-restart-'));
    try {
      const first = await startCapstan({ dataDir });
      const ca = first.kubeConfig.clusters[0]?.cluster['certificate-authority-data'];
      const token = tokenOf(first);
      await first.stop();
      const second = await startCapstan({ dataDir });
      try {
        assert.equal(second.kubeConfig.clusters[0]?.cluster['certificate-authority-data'], ca);
        assert.equal(tokenOf(second), token);
        assert.equal((await get(second, '/version', token)).status, 200);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('serves plain HTTP on loopback when asked', async () => {
    const s = await startCapstan({ scheme: 'http' });
    try {
      assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${s.url}/readyz?verbose`, {
        headers: { authorization: `Bearer ${tokenOf(s)}` },
      });
      assert.equal(res.status, 200);
      assert.match(await res.text(), /readyz check passed\n$/);
    } finally {
      await s.stop();
    }
  });
});
