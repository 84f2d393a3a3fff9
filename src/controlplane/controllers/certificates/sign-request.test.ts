import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { x509Usages } from './key-usages.js';
import { certificateLifetimeMs, validity } from './sign-request.js';
import { signerValidationError } from './signer-validation.js';
import { newTestCA } from './testing/csr-env.js';
import type { CertificateRequest } from '../../../server/tls/certificate-request.js';

const minute = 60_000;
const year = 365 * 24 * 60 * minute;
const now = Date.parse('2026-03-01T00:00:00Z');

describe('the signing policy', () => {
  it('gives the lifetime asked, at least 10 minutes and at most the cluster signing duration', () => {
    assert.equal(certificateLifetimeMs(undefined, year), year);
    assert.equal(certificateLifetimeMs(3600, year), 60 * minute);
    assert.equal(certificateLifetimeMs(60, year), 10 * minute);
    assert.equal(certificateLifetimeMs(10 * 365 * 86400, year), year);
  });

  it('backdates, and cuts the window at the CA expiry; refuses once the CA has expired', () => {
    const ca = newTestCA(now, { days: 30 });
    assert.deepEqual(validity(60 * minute, { ca, certTTLMs: year, now }), {
      notBefore: now - 5 * minute,
      notAfter: now + 60 * minute,
    });
    assert.deepEqual(validity(9 * 60 * minute, { ca, certTTLMs: year, now }), {
      notBefore: now - 5 * minute,
      notAfter: now + 9 * 60 * minute - 5 * minute,
    });
    assert.deepEqual(validity(year, { ca, certTTLMs: year, now }), {
      notBefore: now - 5 * minute,
      notAfter: ca.notAfter,
    });
    const later = ca.notAfter + 10 * minute;
    const expiry = new Date(ca.notAfter)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, '');
    assert.deepEqual(validity(year, { ca, certTTLMs: year, now: later }), {
      error: `the signer has expired: NotAfter=${expiry} +0000 UTC`,
    });
    assert.deepEqual(validity(year, { ca, certTTLMs: year, now: ca.notAfter + 1000 }), {
      error: `refusing to sign a certificate that expired in the past: NotAfter=${expiry} +0000 UTC`,
    });
  });

  it('maps usages as keyUsagesFromStrings does', () => {
    assert.deepEqual(
      x509Usages(['client auth', 'key encipherment', 'digital signature', 'server auth', 's/mime']),
      {
        keyUsageBits: [0, 2],
        extKeyUsages: ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2', '1.3.6.1.5.5.7.3.4'],
      },
    );
    assert.deepEqual(x509Usages(['client auth', 'teleport', 'x']), {
      error: 'unrecognized usage values: ["teleport" "x"]',
    });
  });
});

describe("the built-in signers' checks", () => {
  const req = (over: Partial<CertificateRequest>): CertificateRequest => ({
    subject: { commonName: 'system:node:n1', organization: ['system:nodes'] },
    publicKey: newTestCA(now).certificate.publicKey,
    dnsNames: [],
    emailAddresses: [],
    ipAddresses: [],
    uris: [],
    ...over,
  });
  const clientUsages = ['digital signature', 'client auth'];

  it('kube-apiserver-client-kubelet: a node in system:nodes, no names, client usages', () => {
    const signer = 'kubernetes.io/kube-apiserver-client-kubelet';
    assert.equal(signerValidationError(signer, req({}), clientUsages), undefined);
    assert.equal(
      signerValidationError(
        signer,
        req({ subject: { commonName: 'system:node:n1', organization: ['system:nodes', 'x'] } }),
        clientUsages,
      ),
      'subject organization is not system:nodes',
    );
    assert.equal(
      signerValidationError(signer, req({ dnsNames: ['n1'] }), clientUsages),
      'DNS subjectAltNames are not allowed',
    );
    assert.equal(
      signerValidationError(
        signer,
        req({ subject: { commonName: 'n1', organization: ['system:nodes'] } }),
        clientUsages,
      ),
      'subject common name does not begin with system:node:',
    );
    assert.equal(
      signerValidationError(signer, req({}), ['client auth']),
      'usages did not match [client auth digital signature key encipherment]',
    );
  });

  it('kubelet-serving: names required, no emails, serving usages', () => {
    const signer = 'kubernetes.io/kubelet-serving';
    const usages = ['key encipherment', 'digital signature', 'server auth'];
    assert.equal(
      signerValidationError(signer, req({ ipAddresses: [Buffer.from([10, 0, 0, 1])] }), usages),
      undefined,
    );
    assert.equal(
      signerValidationError(signer, req({ dnsNames: ['n1'], emailAddresses: ['a@b'] }), usages),
      'Email subjectAltNames are not allowed',
    );
    assert.equal(
      signerValidationError(signer, req({ dnsNames: ['n1'] }), ['server auth']),
      'usages did not match [digital signature key encipherment server auth]',
    );
  });

  it('kube-apiserver-client: client auth required; legacy-unknown: anything', () => {
    const signer = 'kubernetes.io/kube-apiserver-client';
    assert.equal(
      signerValidationError(signer, req({}), ['key encipherment']),
      'missing required usage for client certificate: client auth',
    );
    assert.equal(
      signerValidationError(signer, req({}), ['client auth', 'code signing']),
      'invalid usage for client certificate: code signing',
    );
    assert.equal(signerValidationError('kubernetes.io/legacy-unknown', req({}), ['cert sign']), undefined);
  });
});
