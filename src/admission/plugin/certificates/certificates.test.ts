// The CertificateSigningRequest plugins: CertificateApproval and CertificateSigning ask the
// authorizer for `approve` / `sign` on the signer (then on its domain's wildcard);
// CertificateSubjectRestriction refuses system:masters for the kube-apiserver-client signer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import { newTestCSR } from '../../../registry/certificates/certificatesigningrequest/testing/csr-pem.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import type { AuthorizationAttributes, Authorizer } from '../../../registry/rest/authorizer.js';
import type { AdmissionResult } from '../../interfaces.js';
import { attributesOf, type AttributesInit } from '../../testing/attributes.js';
import { CertificateApproval } from './approval.js';
import { CertificateSigning } from './signing.js';
import { CertificateSubjectRestriction } from './subject-restriction.js';

const csr = (
  signerName: string,
  status: CertificateSigningRequest['status'] = {},
): CertificateSigningRequest => ({
  metadata: { name: 'req' },
  spec: { request: newTestCSR('alice').request, signerName, usages: ['client auth'] },
  status,
});
const approved = { conditions: [{ type: 'Approved', status: 'True', reason: 'OK' }] };
const user = { name: 'approver', groups: ['team'] };
const at = (init: AttributesInit): ReturnType<typeof attributesOf> =>
  attributesOf({
    group: 'certificates.k8s.io',
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    name: 'req',
    namespace: '',
    operation: 'UPDATE',
    userInfo: user,
    ...init,
  });

/** Allows `verb` on the `signers` named in `allowed`; remembers every question. */
function authorizerAllowing(...allowed: string[]): Authorizer & { asked: AuthorizationAttributes[] } {
  const asked: AuthorizationAttributes[] = [];
  return {
    asked,
    authorize: (attrs) => {
      asked.push(attrs);
      return Promise.resolve({
        decision: allowed.includes(attrs.name ?? '') ? 'Allow' : 'NoOpinion',
        reason: '',
      });
    },
    rulesFor: () => Promise.reject(new Error('not asked')),
  };
}

const ctx = testContext();
const refused = (p: AdmissionResult, message: string): Promise<void> =>
  assert.rejects(Promise.resolve(p), (err: unknown) => {
    assert.ok(isStatusError(err));
    assert.equal(err.status.code, 403);
    assert.equal(err.status.reason, 'Forbidden');
    assert.equal(
      err.message,
      `certificatesigningrequests.certificates.k8s.io "req" is forbidden: ${message}`,
    );
    return true;
  });

describe('CertificateApproval', () => {
  it('asks for approve on the stored signer, then on its domain wildcard', async () => {
    const authz = authorizerAllowing('example.com/*');
    const plugin = new CertificateApproval(authz);
    const old = csr('example.com/issuer');
    await plugin.validate(
      ctx,
      at({ subresource: 'approval', object: csr('other.io/x', approved), oldObject: old }),
    );
    assert.deepEqual(
      authz.asked.map((a) => [a.verb, a.apiGroup, a.apiVersion, a.resource, a.name, a.user.name]),
      [
        ['approve', 'certificates.k8s.io', '*', 'signers', 'example.com/issuer', 'approver'],
        ['approve', 'certificates.k8s.io', '*', 'signers', 'example.com/*', 'approver'],
      ],
    );
  });

  it('refuses a user who may not approve for the signer', async () => {
    const plugin = new CertificateApproval(authorizerAllowing('example.com/other'));
    const old = csr('example.com/issuer');
    await refused(
      plugin.validate(
        ctx,
        at({ subresource: 'approval', object: csr('example.com/issuer', approved), oldObject: old }),
      ),
      'user not permitted to approve requests with signerName "example.com/issuer"',
    );
  });

  it('leaves the object itself and its status alone', () => {
    const authz = authorizerAllowing();
    const plugin = new CertificateApproval(authz);
    const old = csr('example.com/issuer');
    assert.equal(plugin.validate(ctx, at({ object: old, oldObject: old })), undefined);
    assert.equal(plugin.validate(ctx, at({ subresource: 'status', object: old, oldObject: old })), undefined);
    assert.equal(authz.asked.length, 0);
  });
});

describe('CertificateSigning', () => {
  const issued = { ...approved, certificate: Buffer.from('cert').toString('base64') };

  it('asks for sign when the certificate or the conditions change', async () => {
    const plugin = new CertificateSigning(authorizerAllowing());
    const old = csr('example.com/issuer', approved);
    await refused(
      plugin.validate(
        ctx,
        at({ subresource: 'status', object: csr('example.com/issuer', issued), oldObject: old }),
      ),
      'user not permitted to sign requests with signerName "example.com/issuer"',
    );
    const failed = { conditions: [...approved.conditions, { type: 'Failed', status: 'True' }] };
    await refused(
      plugin.validate(
        ctx,
        at({ subresource: 'status', object: csr('example.com/issuer', failed), oldObject: old }),
      ),
      'user not permitted to sign requests with signerName "example.com/issuer"',
    );
    const signer = new CertificateSigning(authorizerAllowing('example.com/issuer'));
    await signer.validate(
      ctx,
      at({ subresource: 'status', object: csr('example.com/issuer', issued), oldObject: old }),
    );
  });

  it('asks nothing of a status update that changes neither', () => {
    const authz = authorizerAllowing();
    const old = csr('example.com/issuer', approved);
    const same = csr('example.com/issuer', approved);
    assert.equal(
      new CertificateSigning(authz).validate(
        ctx,
        at({ subresource: 'status', object: same, oldObject: old }),
      ),
      undefined,
    );
    assert.equal(authz.asked.length, 0);
  });
});

describe('CertificateSubjectRestriction', () => {
  const plugin = new CertificateSubjectRestriction();
  const create = (signerName: string, organization?: string): ReturnType<typeof attributesOf> =>
    at({
      operation: 'CREATE',
      object: {
        ...csr(signerName),
        spec: { ...csr(signerName).spec!, request: newTestCSR('bob', organization).request },
      },
    });

  it('refuses system:masters for the kube-apiserver-client signer', async () => {
    await refused(
      plugin.validate(ctx, create('kubernetes.io/kube-apiserver-client', 'system:masters')),
      'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    );
  });

  it('admits other organizations, and system:masters for other signers', () => {
    assert.equal(plugin.validate(ctx, create('kubernetes.io/kube-apiserver-client', 'devs')), undefined);
    assert.equal(plugin.validate(ctx, create('kubernetes.io/kube-apiserver-client')), undefined);
    assert.equal(plugin.validate(ctx, create('example.com/issuer', 'system:masters')), undefined);
  });
});
