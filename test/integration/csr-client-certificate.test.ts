// A plain start's own CA both signs approved kube-apiserver-client CSRs and trusts the certificates
// it signed, as a kubeadm or kind cluster's: the "create a user with a certificate" walk-through
// (a CSR, `kubectl certificate approve`, the issued certificate in a kubeconfig) authenticates.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { newCSR } from '../../src/controlplane/controllers/certificates/testing/new-csr.js';
import { waitFor } from './support/wait-for.js';

interface CSR {
  metadata: { name: string };
  status?: { certificate?: string; conditions?: { type: string; status: string }[] };
}

describe('a plain start trusts the client certificates its CSR signer issues', () => {
  let server: CapstanServer;
  let caPem = '';
  /** One HTTPS call, as the admin (its token) or as the holder of a client certificate. */
  const call = (
    path: string,
    init: { method?: string; body?: unknown; cert?: { certPem: string; keyPem: string } },
  ): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const token = server.kubeConfig.users[0]?.user.token ?? '';
      const req = request(
        `${server.url}${path}`,
        {
          method: init.method ?? 'GET',
          ca: caPem,
          ...(init.cert === undefined
            ? { headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }
            : {
                cert: init.cert.certPem,
                key: init.cert.keyPem,
                headers: { 'content-type': 'application/json' },
              }),
        },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body });
          });
        },
      );
      req.on('error', reject);
      req.end(init.body === undefined ? undefined : JSON.stringify(init.body));
    });
  const admin = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const res = await call(path, init);
    assert.ok(res.status < 300, `${path}: ${String(res.status)} ${res.body}`);
    return JSON.parse(res.body) as T;
  };

  before(async () => {
    server = await startCapstan({ storage: 'memory' });
    caPem = Buffer.from(
      server.kubeConfig.clusters[0]?.cluster['certificate-authority-data'] ?? '',
      'base64',
    ).toString();
  });
  after(async () => {
    await server.stop();
  });

  it('signs jane a client certificate that then authenticates as jane', async () => {
    const csr = newCSR({ subject: { commonName: 'jane', organization: ['devs'] } });
    await admin('/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      method: 'POST',
      body: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'jane' },
        spec: {
          request: csr.request,
          signerName: 'kubernetes.io/kube-apiserver-client',
          usages: ['client auth'],
        },
      },
    });
    const path = '/apis/certificates.k8s.io/v1/certificatesigningrequests/jane';
    const current = await admin<CSR>(path);
    await admin(`${path}/approval`, {
      method: 'PUT',
      body: {
        ...current,
        status: {
          conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }],
        },
      },
    });
    const issued = await waitFor(
      'the certificate issued',
      () => admin<CSR>(path),
      (c) => (c.status?.certificate ?? '') !== '',
    );
    const certPem = Buffer.from(issued.status?.certificate ?? '', 'base64').toString();
    const review = await call('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      cert: { certPem, keyPem: csr.keyPem },
    });
    assert.equal(review.status, 201, review.body);
    const user = (JSON.parse(review.body) as { status: { userInfo: { username: string; groups: string[] } } })
      .status.userInfo;
    assert.equal(user.username, 'jane');
    assert.deepEqual(user.groups, ['devs', 'system:authenticated']);
  });
});
