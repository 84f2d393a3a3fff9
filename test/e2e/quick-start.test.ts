// The README's quick start on this checkout: `npm start -- <flags>` (bin/capstan bundles the sources
// when dist/ is missing or stale, as on a fresh clone) serves HTTPS, writes a kubeconfig that kubectl
// trusts without --insecure-skip-tls-verify, and lists the four system namespaces. The second start
// reuses the V8 code cache the first one wrote. The server runs under the V8 flags bin/node-flags
// gives for this machine.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCapstanProcess } from './support/capstan-process.js';
import { kubectl } from './support/kubectl.js';
import { launcherNodeFlags, nodeFlags } from './support/node-flags.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const codeCache = join(repoRoot, 'dist', 'cmd', 'capstan.cjs.v8cache');

/** /metrics answers with the request counters: prom-client loaded in the bundled command. */
async function assertMetrics(kubeconfig: string): Promise<void> {
  const metrics = await kubectl(['get', '--raw', '/metrics'], { kubeconfig });
  assert.equal(metrics.code, 0, metrics.stderr);
  assert.match(metrics.stdout, /^apiserver_request_total\{/m);
}

describe('quick start: npm start', () => {
  it('serves the four namespaces to kubectl over verified TLS, then restarts from the code cache', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capstan-quick-start-'));
    try {
      const first = await startCapstanProcess({ dataDir, via: 'npm-start', readyTimeoutMs: 60_000 });
      try {
        const config = await readFile(first.kubeconfigPath, 'utf8');
        assert.doesNotMatch(config, /insecure-skip-tls-verify/);
        assert.match(config, /certificate-authority-data: "/);
        const ns = await kubectl(['get', 'namespaces', '-o', 'name'], { kubeconfig: first.kubeconfigPath });
        assert.equal(ns.code, 0, ns.stderr);
        assert.deepEqual(ns.stdout.trim().split('\n').sort(), [
          'namespace/default',
          'namespace/kube-node-lease',
          'namespace/kube-public',
          'namespace/kube-system',
        ]);
        assert.match(first.log(), /"Capstan is serving" url="https:\/\/127\.0\.0\.1:\d+" storage="sqlite"/);
        await assertMetrics(first.kubeconfigPath);
        assert.deepEqual(launcherNodeFlags(first.pid ?? -1), nodeFlags());
      } finally {
        await first.stop();
      }
      // Written a second after ready or, as here most likely, when the ready server stops.
      const cachedAt = (await stat(codeCache)).mtimeMs;
      assert.match(first.log(), /"Received signal, shutting down gracefully" signal="SIGTERM"/);

      const second = await startCapstanProcess({ dataDir, via: 'npm-start' });
      try {
        const ns = await kubectl(['get', 'namespace', 'kube-system'], { kubeconfig: second.kubeconfigPath });
        assert.equal(ns.code, 0, ns.stderr);
        await assertMetrics(second.kubeconfigPath); // code run from the cache loads packages too
        assert.equal((await stat(codeCache)).mtimeMs, cachedAt, 'the second start took the cache as it was');
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('bin/node-flags', () => {
  it("caps the helpers that mark the heap at one fewer than the cores, below Node's pool of four", () => {
    assert.deepEqual(nodeFlags('1'), ['--concurrent-marking-max-worker-num=1']);
    assert.deepEqual(nodeFlags('2'), ['--concurrent-marking-max-worker-num=1']);
    assert.deepEqual(nodeFlags('3'), ['--concurrent-marking-max-worker-num=2']);
    assert.deepEqual(nodeFlags('4'), ['--concurrent-marking-max-worker-num=3']);
    assert.deepEqual(nodeFlags('5'), []);
    assert.deepEqual(nodeFlags('64'), []);
  });

  it('gives no flags when the cores are unknown, and refuses a count that is not a number', () => {
    assert.deepEqual(nodeFlags('0'), []);
    assert.throws(
      () => nodeFlags('two'),
      (err: { status?: number; stderr?: Buffer }) => {
        assert.equal(err.status, 2);
        assert.match(String(err.stderr), /CORES must be a whole number, not 'two'/);
        return true;
      },
    );
  });

  it('gives flags node takes', () => {
    for (const cores of ['2', '3', '4']) {
      const out = execFileSync(process.execPath, [...nodeFlags(cores), '-p', '1'], { encoding: 'utf8' });
      assert.equal(out.trim(), '1');
    }
  });
});
