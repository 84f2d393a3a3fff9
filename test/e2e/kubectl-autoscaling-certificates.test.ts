// The real kubectl against one Capstan process: horizontalpodautoscalers through `kubectl autoscale`,
// read at autoscaling/v2 and autoscaling/v1 from one storage, and certificatesigningrequests created
// from YAML and approved or denied by `kubectl certificate approve|deny` (a PUT of the whole object to
// the approval subresource), with kube's default CSR admission plugins: CertificateSubjectRestriction
// and CertificateApproval. The server runs on a PKI directory (`capstan pki`), whose CA its client
// certificate authentication trusts, and its csrsigning controller has a CA per signer, as k3s and
// rke2 give kube-controller-manager (--cluster-signing-<signer>-{cert,key}-file): the kube-apiserver-
// client signer signs with the PKI directory's CA, so a certificate issued for an approved request
// authenticates as the request's subject; the kubelet client signer signs with a CA of its own.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runPKICommand } from '../../src/cmd/pki-command.js';
import { newCSR } from '../../src/controlplane/controllers/certificates/testing/new-csr.js';
import { newTestCSR } from '../../src/registry/certificates/certificatesigningrequest/testing/csr-pem.js';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';
import { isAge, tableRows } from './support/kube-objects.js';

const csrYaml = (
  name: string,
  request: string,
  usages = ['client auth'],
): string => `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: ${name}
spec:
  request: ${request}
  signerName: kubernetes.io/kube-apiserver-client
  expirationSeconds: 86400
  usages:
${usages.map((u) => `  - ${u}`).join('\n')}
`;

/** An RSA key and a request for CN=alice, O=devs made by openssl when the machine has it, else by node. */
async function aliceKeyAndCSR(dir: string): Promise<{ keyPem: string; request: string; by: string }> {
  const run = promisify(execFile);
  const key = join(dir, 'alice.key');
  const csr = join(dir, 'alice.csr');
  try {
    await run('openssl', [
      'req',
      '-new',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      csr,
      '-subj',
      '/CN=alice/O=devs',
    ]);
    const [keyPem, pem] = await Promise.all([readFile(key, 'utf8'), readFile(csr)]);
    return { keyPem, request: pem.toString('base64'), by: 'openssl' };
  } catch {
    const made = newCSR({ subject: { commonName: 'alice', organization: ['devs'] }, keyType: 'rsa' });
    return { keyPem: made.keyPem, request: made.request, by: 'node' };
  }
}

describe('kubectl against capstan: autoscaling and certificates', () => {
  let capstan: CapstanProcess;
  let pkiDir = '';
  let kubeletClientCA: X509Certificate;
  const kubectl = (args: readonly string[], input?: string): Promise<KubectlResult> =>
    runKubectl(args, { kubeconfig: capstan.kubeconfigPath, ...(input === undefined ? {} : { input }) });
  const ok = async (args: readonly string[], input?: string): Promise<string> => {
    const r = await kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    await locateKubectl();
    pkiDir = await mkdtemp(join(tmpdir(), 'capstan-pki-'));
    const io = { stdout: { write: () => true }, stderr: process.stderr };
    assert.equal(await runPKICommand(['--dir', pkiDir, '--san', '127.0.0.1'], io), 0);
    // Another PKI directory's CA, for the kubelet client signer alone.
    const kubeletPKI = join(pkiDir, 'kubelet-client');
    assert.equal(await runPKICommand(['--dir', kubeletPKI, '--san', '127.0.0.1'], io), 0);
    kubeletClientCA = new X509Certificate(await readFile(join(kubeletPKI, 'ca.crt')));
    // RBAC, so that the approval of a CSR can be refused to a user; the admin is system:masters.
    capstan = await startCapstanProcess({
      args: [
        '--authorization-mode=RBAC',
        `--pki-dir=${pkiDir}`,
        `--cluster-signing-kube-apiserver-client-cert-file=${join(pkiDir, 'ca.crt')}`,
        `--cluster-signing-kube-apiserver-client-key-file=${join(pkiDir, 'ca.key')}`,
        `--cluster-signing-kubelet-client-cert-file=${join(kubeletPKI, 'ca.crt')}`,
        `--cluster-signing-kubelet-client-key-file=${join(kubeletPKI, 'ca.key')}`,
      ],
    });
  });
  after(async () => {
    await capstan.stop();
    if (pkiDir !== '') await rm(pkiDir, { recursive: true, force: true });
  });

  it('autoscales a deployment and serves the autoscaler at v2 and v1', async () => {
    await ok(['create', 'deployment', 'web', '--image=nginx']);
    assert.equal(
      await ok(['autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=80']),
      'horizontalpodautoscaler.autoscaling/web autoscaled\n',
    );
    const rows = tableRows(await ok(['get', 'hpa']));
    assert.deepEqual(rows[0], ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    assert.deepEqual(rows[1]?.slice(0, 6), ['web', 'Deployment/web', 'cpu:', '<unknown>/80%', '2', '5']);
    assert.ok(isAge(rows[1][7]), `age: ${rows[1][7] ?? ''}`);

    // Category all: `kubectl get all` lists the autoscaler beside the deployment.
    assert.match(await ok(['get', 'all']), /horizontalpodautoscaler\.autoscaling\/web\s+Deployment\/web/);
    // kubectl expands the short name `hpa` to the group's preferred version and drops a `.v1` after it
    // (hpa.v1.autoscaling reads v2, from kube too), so the full resource name picks v1.
    const v1 = JSON.parse(
      await ok(['get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json']),
    ) as {
      apiVersion: string;
      spec: { targetCPUUtilizationPercentage?: number; minReplicas?: number; maxReplicas: number };
    };
    assert.equal(v1.apiVersion, 'autoscaling/v1');
    assert.deepEqual(
      [v1.spec.targetCPUUtilizationPercentage, v1.spec.minReplicas, v1.spec.maxReplicas],
      [80, 2, 5],
    );
    const v2 = JSON.parse(await ok(['get', 'hpa', 'web', '-o', 'json'])) as {
      apiVersion: string;
      spec: { metrics: unknown[] };
    };
    assert.equal(v2.apiVersion, 'autoscaling/v2');
    assert.deepEqual(v2.spec.metrics, [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
      },
    ]);
    // kubectl autoscale checks min <= max itself; the server's rule answers a v1 manifest.
    const inverted = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'inverted' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 4, maxReplicas: 2 },
    };
    const bad = await kubectl(['create', '-f', '-'], JSON.stringify(inverted));
    assert.equal(bad.code, 1);
    assert.equal(
      bad.stderr,
      'The HorizontalPodAutoscaler "inverted" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`\n',
    );
  });

  it('creates a CSR from YAML, approves it with kubectl certificate approve and prints Approved', async () => {
    const { request } = newTestCSR('jane', 'devs');
    assert.equal(
      await ok(['create', '-f', '-'], csrYaml('jane', request)),
      'certificatesigningrequest.certificates.k8s.io/jane created\n',
    );
    const pending = tableRows(await ok(['get', 'csr']));
    assert.deepEqual(pending[0], [
      'NAME',
      'AGE',
      'SIGNERNAME',
      'REQUESTOR',
      'REQUESTEDDURATION',
      'CONDITION',
    ]);
    assert.deepEqual(
      [pending[1]?.[0], pending[1]?.[2], pending[1]?.[4], pending[1]?.[5]],
      ['jane', 'kubernetes.io/kube-apiserver-client', '24h', 'Pending'],
    );
    assert.equal(
      await ok(['certificate', 'approve', 'jane']),
      'certificatesigningrequest.certificates.k8s.io/jane approved\n',
    );
    const bySigner = await ok([
      'get',
      'csr',
      '--field-selector=spec.signerName=kubernetes.io/kube-apiserver-client',
      '-o',
      'name',
    ]);
    assert.equal(bySigner, 'certificatesigningrequest.certificates.k8s.io/jane\n');
    const approved = tableRows(await ok(['get', 'csr', 'jane']));
    // The signer may have issued it already.
    assert.match(approved[1]?.[5] ?? '', /^Approved(,Issued)?$/);
    const obj = JSON.parse(await ok(['get', 'csr', 'jane', '-o', 'json'])) as {
      status: { conditions: { type: string; reason: string }[] };
    };
    assert.deepEqual(
      obj.status.conditions.map((c) => [c.type, c.reason]),
      [['Approved', 'KubectlApprove']],
    );
    // kubectl refuses to deny an approved request itself; the approval subresource refuses it too.
    const denied = {
      ...obj,
      status: { conditions: [...obj.status.conditions, { type: 'Denied', status: 'True', reason: 'Late' }] },
    };
    const url = '/apis/certificates.k8s.io/v1/certificatesigningrequests/jane/approval';
    const deny = await kubectl(['replace', '--raw', url, '-f', '-'], JSON.stringify(denied));
    assert.notEqual(deny.code, 0);
    assert.match(deny.stderr, /Approved and Denied conditions are mutually exclusive/);
  });

  it('denies another request and refuses one that is not a certificate request', async () => {
    await ok(['create', '-f', '-'], csrYaml('bob', newTestCSR('bob').request));
    assert.equal(
      await ok(['certificate', 'deny', 'bob']),
      'certificatesigningrequest.certificates.k8s.io/bob denied\n',
    );
    assert.equal(tableRows(await ok(['get', 'csr', 'bob']))[1]?.[5], 'Denied');
    const bad = await kubectl(
      ['create', '-f', '-'],
      csrYaml('junk', Buffer.from('not a pem').toString('base64')),
    );
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /spec.request: Invalid value: .*PEM block type must be CERTIFICATE REQUEST/);
  });

  it('refuses system:masters to the client signer, and approval to a user without approve on the signer', async () => {
    const root = await kubectl(
      ['create', '-f', '-'],
      csrYaml('root', newTestCSR('root', 'system:masters').request),
    );
    assert.equal(root.code, 1);
    assert.equal(
      root.stderr,
      'Error from server (Forbidden): error when creating "STDIN": certificatesigningrequests.certificates.k8s.io "root" ' +
        'is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed\n',
    );
    await ok(['create', '-f', '-'], csrYaml('carol', newTestCSR('carol', 'devs').request));
    // The approver may update the approval subresource, but holds no `approve` on any signer yet.
    await ok([
      'create',
      'clusterrole',
      'csr-approver',
      '--verb=get,list,update',
      '--resource=certificatesigningrequests,certificatesigningrequests/approval',
    ]);
    await ok([
      'create',
      'clusterrolebinding',
      'csr-approver',
      '--clusterrole=csr-approver',
      '--user=approver',
    ]);
    const refused = await kubectl(['certificate', 'approve', 'carol', '--as=approver']);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /certificatesigningrequests\.certificates\.k8s\.io "carol" is forbidden: user not permitted to approve requests with signerName "kubernetes\.io\/kube-apiserver-client"/,
    );
    assert.equal(tableRows(await ok(['get', 'csr', 'carol']))[1]?.[5], 'Pending');
    // `approve` on the signer domain's wildcard, as kube's docs grant it.
    // kubectl create clusterrole refuses a verb and a resource it does not know; a manifest does not.
    await ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'signer-approver' },
        rules: [
          {
            apiGroups: ['certificates.k8s.io'],
            resources: ['signers'],
            resourceNames: ['kubernetes.io/*'],
            verbs: ['approve'],
          },
        ],
      }),
    );
    await ok([
      'create',
      'clusterrolebinding',
      'signer-approver',
      '--clusterrole=signer-approver',
      '--user=approver',
    ]);
    assert.equal(
      await ok(['certificate', 'approve', 'carol', '--as=approver']),
      'certificatesigningrequest.certificates.k8s.io/carol approved\n',
    );
  });

  it('issues an approved client certificate that authenticates as its subject, and fails a server usage', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-alice-'));
    try {
      const { keyPem, request, by } = await aliceKeyAndCSR(dir);
      await ok(['create', '-f', '-'], csrYaml('alice', request));
      await ok(['certificate', 'approve', 'alice']);
      const deadline = Date.now() + 20_000;
      let certificate = '';
      while (certificate === '') {
        assert.ok(Date.now() < deadline, 'no certificate issued for alice');
        certificate = await ok(['get', 'csr', 'alice', '-o', 'jsonpath={.status.certificate}']);
        if (certificate === '') await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(tableRows(await ok(['get', 'csr', 'alice']))[1]?.[5], 'Approved,Issued');
      // A kubeconfig with the issued certificate and the key (made by `by`) instead of the admin token.
      const admin = await readFile(capstan.kubeconfigPath, 'utf8');
      const ca = /certificate-authority-data: "([^"]+)"/.exec(admin)?.[1] ?? '';
      const kubeconfig = join(dir, 'alice.kubeconfig');
      await writeFile(
        kubeconfig,
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [{ name: 'c', cluster: { server: capstan.url, 'certificate-authority-data': ca } }],
          users: [
            {
              name: 'alice',
              user: {
                'client-certificate-data': certificate,
                'client-key-data': Buffer.from(keyPem).toString('base64'),
              },
            },
          ],
          contexts: [{ name: 'alice', context: { cluster: 'c', user: 'alice' } }],
          'current-context': 'alice',
        }),
      );
      const whoami = await runKubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig });
      assert.equal(whoami.code, 0, `whoami with the ${by} key failed: ${whoami.stderr}`);
      const review = JSON.parse(whoami.stdout) as {
        status: { userInfo: { username: string; groups: string[] } };
      };
      assert.equal(review.status.userInfo.username, 'alice');
      assert.deepEqual(review.status.userInfo.groups, ['devs', 'system:authenticated']);

      // kube-apiserver-client signs client certificates only: a server usage fails the request.
      await ok(
        ['create', '-f', '-'],
        csrYaml('web', newTestCSR('web').request, ['client auth', 'server auth']),
      );
      await ok(['certificate', 'approve', 'web']);
      type Condition = { type: string; reason?: string; message?: string };
      let failed: Condition | undefined;
      const failedBy = Date.now() + 20_000;
      while (failed === undefined) {
        assert.ok(Date.now() < failedBy, 'web was not marked Failed');
        const got = JSON.parse(await ok(['get', 'csr', 'web', '-o', 'json'])) as {
          status: { conditions?: Condition[]; certificate?: string };
        };
        failed = got.status.conditions?.find((c) => c.type === 'Failed');
        if (failed === undefined) await new Promise((r) => setTimeout(r, 50));
        else assert.equal(got.status.certificate, undefined);
      }
      assert.deepEqual(
        [failed.reason, failed.message],
        ['SignerValidationFailure', 'invalid usage for client certificate: server auth'],
      );
      assert.equal(tableRows(await ok(['get', 'csr', 'web']))[1]?.[5], 'Approved,Failed');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('auto-approves a kubelet client request of a user who may create nodeclient requests, and issues it with the kubelet client CA', async () => {
    const { request } = newTestCSR('system:node:n1', 'system:nodes');
    const yaml = csrYaml('node-n1', request, ['digital signature', 'client auth']).replace(
      'kubernetes.io/kube-apiserver-client',
      'kubernetes.io/kube-apiserver-client-kubelet',
    );
    await ok(['create', '-f', '-'], yaml);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const got = JSON.parse(await ok(['get', 'csr', 'node-n1', '-o', 'json'])) as {
        status: { conditions?: { type: string; reason?: string; message?: string }[]; certificate?: string };
      };
      if (got.status.certificate !== undefined) {
        const cert = new X509Certificate(Buffer.from(got.status.certificate, 'base64'));
        assert.ok(cert.verify(kubeletClientCA.publicKey), 'signed by the kubelet client signer’s CA');
        assert.ok(cert.checkIssued(kubeletClientCA));
        assert.deepEqual(
          got.status.conditions?.map((c) => [c.type, c.reason, c.message]),
          [
            [
              'Approved',
              'AutoApproved',
              'Auto approving kubelet client certificate after SubjectAccessReview.',
            ],
          ],
        );
        break;
      }
      assert.ok(Date.now() < deadline, 'node-n1 was not approved and issued');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
