// NODE_EXTRA_CA_CERTS under `npm start`: bin/capstan hands the file to the server as
// CAPSTAN_EXTRA_CA_CERTS (Node would parse it at process start, ~90 ms), and the server still
// trusts it for an https etcd given no --etcd-cafile, as Node would have.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeWithTlsEtcd } from '../../src/storage/backends/etcd3/testing/describe-with-tls-etcd.js';
import { startCapstanProcess } from './support/capstan-process.js';
import { kubectl } from './support/kubectl.js';

/** The environment of the node process under npm's process group `pgid` that runs the launcher. */
function launcherEnvironment(pgid: number): Map<string, string> {
  const pid = execFileSync('pgrep', ['-g', String(pgid), '-f', 'launch.cjs'], { encoding: 'utf8' }).trim();
  assert.match(pid, /^\d+$/, `one launcher process in group ${pgid}`);
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter((e) => e !== '');
  return new Map(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

describeWithTlsEtcd('npm start with NODE_EXTRA_CA_CERTS and an https etcd', (fx) => {
  it('moves the variable off Node and trusts its CA for etcd without --etcd-cafile', async () => {
    const server = await startCapstanProcess({
      via: 'npm-start',
      readyTimeoutMs: 60_000,
      env: { NODE_EXTRA_CA_CERTS: fx.tls().caFile, CAPSTAN_EXTRA_CA_CERTS: undefined },
      args: [
        '--storage-backend=etcd3',
        `--etcd-servers=${fx.etcd().endpoints.join(',')}`,
        `--etcd-certfile=${fx.tls().clientCertFile}`,
        `--etcd-keyfile=${fx.tls().clientKeyFile}`,
      ],
    });
    try {
      const env = launcherEnvironment(server.pid ?? 0);
      assert.equal(env.get('NODE_EXTRA_CA_CERTS'), undefined);
      assert.equal(env.get('CAPSTAN_EXTRA_CA_CERTS'), fx.tls().caFile);
      const created = await kubectl(['create', 'configmap', 'over-tls', '--from-literal=k=v'], {
        kubeconfig: server.kubeconfigPath,
      });
      assert.equal(created.code, 0, created.stderr);
      const read = await kubectl(['get', 'configmap', 'over-tls', '-o', 'jsonpath={.data.k}'], {
        kubeconfig: server.kubeconfigPath,
      });
      assert.equal(read.stdout, 'v', read.stderr);
    } finally {
      await server.stop();
    }
  });
});
