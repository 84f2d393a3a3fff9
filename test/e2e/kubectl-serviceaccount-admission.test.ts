// The real kubectl against one Capstan process: ServiceAccount admission runs a new pod as the
// namespace's `default` account with its credentials volume mounted, and refuses a pod naming an
// account that does not exist with kube's Forbidden text.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';

const ns = 'e2e-sa-admission';
const tokenPath = '/var/run/secrets/kubernetes.io/serviceaccount';

interface PodJSON {
  spec: {
    serviceAccountName?: string;
    serviceAccount?: string;
    volumes?: { name: string; projected?: { sources: Record<string, unknown>[]; defaultMode?: number } }[];
    containers: { name: string; volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[] }[];
  };
}

describe('kubectl against capstan: ServiceAccount admission', () => {
  let capstan: CapstanProcess;
  let dataDir: string;
  const kubectl = (args: readonly string[]): Promise<KubectlResult> =>
    runKubectl(args, { kubeconfig: capstan.kubeconfigPath });
  const ok = async (args: readonly string[]): Promise<string> => {
    const r = await kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    await locateKubectl();
    dataDir = await mkdtemp(join(tmpdir(), 'capstan-e2e-sa-admission-'));
    capstan = await startCapstanProcess({ dataDir, port: await freePort() });
    await ok(['create', 'namespace', ns]);
  });

  after(async () => {
    await capstan.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('kubectl run: the pod runs as `default` with the kube-api-access volume mounted', async () => {
    // Right after the namespace is made: admission waits for the controller's `default` account.
    assert.equal(await ok(['run', 'p', '-n', ns, '--image=nginx']), 'pod/p created\n');
    const pod = JSON.parse(await ok(['get', 'pod', 'p', '-n', ns, '-o', 'json'])) as PodJSON;
    assert.equal(pod.spec.serviceAccountName, 'default');
    assert.equal(pod.spec.serviceAccount, 'default');
    const volume = pod.spec.volumes?.find((v) => v.name.startsWith('kube-api-access-'));
    assert.ok(volume !== undefined, JSON.stringify(pod.spec.volumes));
    assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(volume.projected?.defaultMode, 420);
    assert.deepEqual(
      volume.projected.sources.map((s) => Object.keys(s)),
      [['serviceAccountToken'], ['configMap'], ['downwardAPI']],
    );
    assert.deepEqual(pod.spec.containers[0]?.volumeMounts, [
      { name: volume.name, readOnly: true, mountPath: tokenPath },
    ]);
  });

  it('kubectl run with a service account that does not exist fails as kube words it', async () => {
    const r = await kubectl([
      'run',
      'q',
      '-n',
      ns,
      '--image=nginx',
      '--overrides={"spec":{"serviceAccountName":"nope"}}',
    ]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(
      r.stderr,
      `Error from server (Forbidden): pods "q" is forbidden: error looking up service account ${ns}/nope: serviceaccount "nope" not found\n`,
    );
    const get = await kubectl(['get', 'pod', 'q', '-n', ns]);
    assert.equal(get.stderr, 'Error from server (NotFound): pods "q" not found\n');
  });

  it('automountServiceAccountToken: false on the pod adds nothing', async () => {
    await ok([
      'run',
      'quiet',
      '-n',
      ns,
      '--image=nginx',
      '--overrides={"spec":{"automountServiceAccountToken":false}}',
    ]);
    const pod = JSON.parse(await ok(['get', 'pod', 'quiet', '-n', ns, '-o', 'json'])) as PodJSON;
    assert.equal(pod.spec.serviceAccountName, 'default');
    assert.equal(pod.spec.volumes, undefined);
    assert.equal(pod.spec.containers[0]?.volumeMounts, undefined);
  });
});
