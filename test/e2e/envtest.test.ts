// Capstan as controller-runtime envtest's kube-apiserver (TEST_ASSET_KUBE_APISERVER pointing at the
// package's bin/capstan): the start sequence of envtest's controlplane.APIServer replayed step by
// step, as Go has no place on this machine. Its files in --cert-dir, `--help` searched for
// --insecure-port, its default flags over its own etcd, /healthz polled without verification, then
// its admin (a client certificate in system:masters) installs a CRD and waits for discovery, as
// CRDInstallOptions does; SIGTERM must end the process within its 20 s stop timeout.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startEtcd, type EtcdProcess } from '../../src/storage/backends/etcd3/testing/etcd-process.js';
import { freePort } from './support/capstan-process.js';
import { writeEnvtestFiles, type EnvtestFiles } from './support/envtest-files.js';
import { kubectl } from './support/kubectl.js';

const capstanBin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'capstan');

interface Answer {
  readonly code: number;
  readonly body: Record<string, unknown>;
}

/** One request as envtest's rest.Config for its admin makes it (or `bearer`, for a token). */
function call(
  url: string,
  t: { files: EnvtestFiles; bearer?: string },
  req: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  const identity =
    t.bearer === undefined
      ? { cert: t.files.admin.certPem, key: t.files.admin.keyPem }
      : { headers: { authorization: `Bearer ${t.bearer}` } };
  return new Promise((resolve, reject) => {
    const r = request(
      url,
      {
        method: req.method ?? 'GET',
        ca: t.files.servingCAPem,
        ...identity,
        headers: { 'content-type': 'application/json', ...('headers' in identity ? identity.headers : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          resolve({ code: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
        });
      },
    );
    r.on('error', reject);
    r.end(req.body === undefined ? undefined : JSON.stringify(req.body));
  });
}

/** process.State's pollURLUntilOK: /healthz every 100 ms, certificates not checked. */
async function pollHealthz(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before it was healthy`);
    const code = await new Promise<number>((resolve) => {
      request(`${url}/healthz`, { rejectUnauthorized: false, timeout: 2000 }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', () => {
          resolve(0);
        })
        .end();
    });
    if (code === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not healthy within ${timeoutMs} ms`);
}

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'guestbooks.webapp.example.com' },
  spec: {
    group: 'webapp.example.com',
    names: { kind: 'Guestbook', plural: 'guestbooks', singular: 'guestbook', listKind: 'GuestbookList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
          },
        },
      },
    ],
  },
};

describe('envtest: Capstan as the kube-apiserver of controller-runtime envtest', () => {
  let etcd: EtcdProcess;
  let certDir: string;
  let packageDir: string;
  let files: EnvtestFiles;
  let url: string;
  let child: ChildProcess;
  let log = '';

  before(async () => {
    etcd = await startEtcd();
    certDir = await mkdtemp(join(tmpdir(), 'k8s_test_framework_'));
    packageDir = await mkdtemp(join(tmpdir(), 'envtest-package-'));
    files = await writeEnvtestFiles(certDir);
    // discoverFlags: the flag is passed (as 0) only where `--help` lists it.
    const help = (await promisify(execFile)(capstanBin, ['--help'])).stdout;
    const insecurePort = /^\s*--insecure-port\b/m.test(help) ? ['--insecure-port=0'] : [];
    const port = await freePort();
    url = `https://127.0.0.1:${port}`;
    const args = [
      '--advertise-address=127.0.0.1',
      '--allow-privileged=true',
      '--authorization-mode=RBAC',
      '--bind-address=127.0.0.1',
      `--cert-dir=${certDir}`,
      '--disable-admission-plugins=ServiceAccount',
      `--etcd-servers=${etcd.endpoints.join(',')}`,
      ...insecurePort,
      `--secure-port=${port}`,
      `--service-account-issuer=${url}/`,
      '--service-cluster-ip-range=10.0.0.0/24',
      ...files.args,
    ];
    // A Go test runs in its package's directory.
    child = spawn(capstanBin, args, { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    await pollHealthz(url, child, 20_000).catch((err: unknown) => {
      throw new Error(`${String(err)}\n--- log ---\n${log}`);
    });
  });

  after(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await etcd.stop();
    await rm(certDir, { recursive: true, force: true });
    await rm(packageDir, { recursive: true, force: true });
  });

  it('stores in envtest’s etcd and serves with envtest’s certificate to its admin', async () => {
    assert.match(log, /"Capstan is serving" url="https:\/\/127\.0\.0\.1:\d+" storage="etcd3"/);
    const review = await call(
      `${url}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      { files },
      {
        method: 'POST',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      },
    );
    assert.equal(review.code, 201);
    assert.deepEqual(review.body['status'], {
      userInfo: { username: 'envtest-admin', groups: ['system:masters', 'system:authenticated'] },
    });
  });

  it('serves an installed CRD once discovery lists it, as CRDInstallOptions waits', async () => {
    const made = await call(
      `${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`,
      { files },
      {
        method: 'POST',
        body: crd,
      },
    );
    assert.equal(made.code, 201);
    const deadline = Date.now() + 10_000;
    let listed = false;
    while (!listed && Date.now() < deadline) {
      const group = await call(`${url}/apis/webapp.example.com/v1`, { files });
      const resources = (group.body['resources'] ?? []) as { name: string }[];
      listed = group.code === 200 && resources.some((r) => r.name === 'guestbooks');
      if (!listed) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(listed, 'guestbooks in discovery');
    const cr = await call(
      `${url}/apis/webapp.example.com/v1/namespaces/default/guestbooks`,
      { files },
      {
        method: 'POST',
        body: {
          apiVersion: 'webapp.example.com/v1',
          kind: 'Guestbook',
          metadata: { name: 'g' },
          spec: { size: 3 },
        },
      },
    );
    assert.equal(cr.code, 201);
    // kubectl with the same client certificate, as envtest's ControlPlane.KubeCtl configures it.
    const kubeconfig = join(certDir, 'admin.kubeconfig');
    const b64 = (s: string): string => Buffer.from(s).toString('base64');
    await writeFile(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'envtest',
            cluster: { server: url, 'certificate-authority-data': b64(files.servingCAPem) },
          },
        ],
        users: [
          {
            name: 'envtest-admin',
            user: {
              'client-certificate-data': b64(files.admin.certPem),
              'client-key-data': b64(files.admin.keyPem),
            },
          },
        ],
        contexts: [{ name: 'envtest', context: { cluster: 'envtest', user: 'envtest-admin' } }],
        'current-context': 'envtest',
      }),
    );
    const got = await kubectl(['get', 'guestbooks', '-o', 'jsonpath={.items[*].spec.size}'], { kubeconfig });
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stdout, '3');
  });

  it('signs service account tokens with sa-signer.key and accepts them through sa-signer.crt', async () => {
    const sa = await call(
      `${url}/api/v1/namespaces/default/serviceaccounts`,
      { files },
      {
        method: 'POST',
        body: { metadata: { name: 'manager' } },
      },
    );
    assert.equal(sa.code, 201);
    const requested = await call(
      `${url}/api/v1/namespaces/default/serviceaccounts/manager/token`,
      { files },
      {
        method: 'POST',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
      },
    );
    assert.equal(requested.code, 201);
    const token = (requested.body['status'] as { token: string }).token;
    const [header = '', payload = ''] = token.split('.');
    assert.equal((JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string }).alg, 'RS256');
    assert.equal(
      (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iss: string }).iss,
      `${url}/`,
    );
    const review = await call(
      `${url}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      { files, bearer: token },
      {
        method: 'POST',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      },
    );
    assert.equal(
      (review.body['status'] as { userInfo: { username: string } }).userInfo.username,
      'system:serviceaccount:default:manager',
    );
  });

  it('admits a privileged pod without a service account token (ServiceAccount admission off)', async () => {
    const pod = await call(
      `${url}/api/v1/namespaces/default/pods`,
      { files },
      {
        method: 'POST',
        body: {
          metadata: { name: 'p' },
          spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] },
        },
      },
    );
    assert.equal(pod.code, 201, JSON.stringify(pod.body));
    const spec = pod.body['spec'] as { serviceAccountName?: string; volumes?: unknown[] };
    assert.equal(spec.serviceAccountName, undefined);
    assert.equal(spec.volumes, undefined);
  });

  it('stops on SIGTERM within envtest’s stop timeout and wrote nothing in the package directory', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(() => {
        resolve('timeout');
      }, 20_000).unref(),
    );
    assert.equal(await Promise.race([exited, timeout]), 0);
    assert.deepEqual(await readdir(packageDir), []);
  });
});
