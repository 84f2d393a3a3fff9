// The library as an application gets it: after `npm run build`, plain Node (no tsx) imports
// `startCapstan` from the package name through package.json "exports", starts a server and talks to
// it with @kubernetes/client-node through the kubeConfig it returns; the type declarations exist.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const application = `
import { startCapstan } from 'capstan';
import * as k8s from '@kubernetes/client-node';
const a = await startCapstan({ storage: 'memory' });
const b = await startCapstan({ storage: 'memory' });
const client = (server) => {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(JSON.stringify(server.kubeConfig));
  return kc.makeApiClient(k8s.CoreV1Api);
};
try {
  const core = client(a);
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'from-dist' } } });
  const inA = await core.listNamespacedConfigMap({ namespace: 'default' });
  const inB = await client(b).listNamespacedConfigMap({ namespace: 'default' });
  const names = (l) => l.items.map((c) => c.metadata.name).filter((n) => n !== 'kube-root-ca.crt');
  console.log(JSON.stringify({ url: a.url, a: names(inA), b: names(inB) }));
} finally {
  await a.stop();
  await b.stop();
}
`;

describe('the built package', () => {
  it('serves startCapstan to plain Node through its exports after npm run build', async () => {
    await run('npm', ['run', 'build', '--silent'], { cwd: root });
    assert.ok((await stat(join(root, 'dist', 'index.d.ts'))).isFile());
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', application], {
      cwd: root,
      timeout: 60_000,
    });
    const out = JSON.parse(stdout) as { url: string; a: string[]; b: string[] };
    assert.match(out.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(out.a, ['from-dist']);
    assert.deepEqual(out.b, [], 'two servers in one process share nothing');
  });
});
