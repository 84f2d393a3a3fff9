import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { after, before, describe, it } from 'node:test';
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import { newCertificateSigningRequestREST, type CertificateSigningRequestStorage } from './storage.js';
import { newTestCSR, requestOf } from './testing/csr-pem.js';

const csr = (
  name: string,
  spec: Partial<NonNullable<CertificateSigningRequest['spec']>> = {},
): CertificateSigningRequest => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: {
    request: newTestCSR(name).request,
    signerName: 'kubernetes.io/kube-apiserver-client',
    usages: ['client auth'],
    ...spec,
  },
});
const put = (obj: CertificateSigningRequest): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const causes = (status: { details?: { causes?: { field?: string; message?: string }[] } }): string[] =>
  status.details?.causes?.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`) ?? [];
// A self-signed test certificate (CN=capstan-test), made with openssl for these tests.
const testCertificate = `-----BEGIN CERTIFICATE-----
MIIBhDCCASugAwIBAgIUGYCynLP8zogrYaUgPXbXI5e7q0IwCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMY2Fwc3Rhbi10ZXN0MCAXDTI2MTEyNjAyMDYwNFoYDzIxMjYx
MTAyMDIwNjA0WjAXMRUwEwYDVQQDDAxjYXBzdGFuLXRlc3QwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAATULHgz0vmHSz6C25ZwfZz+tbo/dl17FWT8NCbcjEkQRq9v
GO/vvltLAGJZTTFErd762FnW8TlDNUN1KhMCK0kGo1MwUTAdBgNVHQ4EFgQU0ouD
0nOOoFsJwDFyjpEYp4BQcGMwHwYDVR0jBBgwFoAU0ouD0nOOoFsJwDFyjpEYp4BQ
cGMwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiB78DK4Hg3lRgoN
KWfy6mv3N4x8l8hORgX7MgZbzxLf7AIgRxkOLGyfAbUw7hQXHkcdm46NimV3osEL
sEL5wLOo2VI=
-----END CERTIFICATE-----
`;
const approved = { type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'approved' };
const denied = { type: 'Denied', status: 'True', reason: 'KubectlDeny', message: 'denied' };

describe('certificatesigningrequests', () => {
  let env: MemoryRESTOptions;
  let storage: CertificateSigningRequestStorage;
  const ctx: RequestContext = {
    ...testContext(''),
    user: { name: 'jane', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } },
  };
  before(async () => {
    env = await memoryRESTOptions();
    storage = await newCertificateSigningRequestREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('records the requesting user over what the request claims, and starts without status', async () => {
    const out = await storage.certificateSigningRequests.create(
      ctx,
      {
        ...csr('jane-client', { username: 'admin', groups: ['system:masters'] }),
        status: { conditions: [approved] },
      },
      { options: {} },
    );
    assert.deepEqual(
      [out.spec?.username, out.spec?.uid, out.spec?.groups, out.spec?.extra],
      ['jane', 'u-1', ['devs', 'system:authenticated'], { scopes: ['a'] }],
    );
    assert.deepEqual(out.status, {});
    assert.notEqual((await env.backend.get('/registry/certificatesigningrequests/jane-client')).kv, null);
    assert.deepEqual(storage.certificateSigningRequests.shortNames(), ['csr']);
    assert.equal(storage.certificateSigningRequests.namespaceScoped(), false);
  });

  it("refuses a request that is not a signed PKCS#10 PEM, bad signers and usages, with kube's messages", async () => {
    const good = newTestCSR('x');
    const tampered = Buffer.from(good.der);
    tampered[tampered.length - 3] = (tampered[tampered.length - 3] ?? 0) ^ 0xff;
    const cases: [Partial<NonNullable<CertificateSigningRequest['spec']>>, string[]][] = [
      [
        { request: requestOf(good.der, 'CERTIFICATE') },
        [
          `spec.request: Invalid value: "${requestOf(good.der, 'CERTIFICATE')}": PEM block type must be CERTIFICATE REQUEST`,
        ],
      ],
      [
        { request: requestOf(good.der.subarray(0, 50)) },
        [
          `spec.request: Invalid value: "${requestOf(good.der.subarray(0, 50))}": x509: malformed certificate request`,
        ],
      ],
      [
        { request: requestOf(tampered) },
        [`spec.request: Invalid value: "${requestOf(tampered)}": x509: ECDSA verification failure`],
      ],
      [
        { signerName: 'example', usages: [] },
        [
          'spec.usages: Required value',
          'spec.signerName: Invalid value: "example": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
        ],
      ],
      [
        { signerName: 'example/x', usages: ['client auth', 'flying', 'client auth'], expirationSeconds: 60 },
        [
          'spec.usages[1]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
          'spec.usages[2]: Duplicate value: "client auth"',
          'spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots',
          'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
        ],
      ],
      [
        { signerName: 'kubernetes.io/legacy-unknown' },
        [
          'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
        ],
      ],
    ];
    for (const [spec, want] of cases) {
      const status = await rejectsWithStatus(
        storage.certificateSigningRequests.create(ctx, csr('bad', spec), { options: {} }),
        { code: 422, reason: 'Invalid' },
      );
      assert.deepEqual(causes(status), want);
    }
  });

  it('approves through /approval (only the conditions change), never through the main resource', async () => {
    const current = await storage.certificateSigningRequests.get(ctx, 'jane-client', {});
    // The main resource keeps the stored status: the update goes through and changes nothing.
    const viaMain = await storage.certificateSigningRequests.update(
      ctx,
      'jane-client',
      put({ ...current, status: { conditions: [approved] } }),
    );
    assert.deepEqual(viaMain.object.status, {});
    const { object } = await storage.approval.update(
      ctx,
      'jane-client',
      put({
        ...current,
        spec: { ...(current.spec ?? { request: '', signerName: '' }), signerName: 'example.com/other' },
        status: { conditions: [approved], certificate: 'AAAA' },
      }),
    );
    assert.equal(object.spec?.signerName, 'kubernetes.io/kube-apiserver-client');
    assert.equal(object.status?.certificate, undefined);
    const [condition] = object.status?.conditions ?? [];
    assert.equal(condition?.type, 'Approved');
    assert.match(condition.lastUpdateTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(condition.lastTransitionTime, condition.lastUpdateTime);
    const table = storage.certificateSigningRequests.convertToTable(ctx, object, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition'],
    );
    assert.deepEqual(
      [table.rows[0]?.cells[0], ...(table.rows[0]?.cells.slice(2) ?? [])],
      ['jane-client', 'kubernetes.io/kube-apiserver-client', 'jane', '<none>', 'Approved'],
    );
  });

  it("refuses Approved with Denied, duplicates and removals, with kube's messages", async () => {
    const current = await storage.approval.get(ctx, 'jane-client', {});
    const conditions = current.status?.conditions ?? [];
    const both = await rejectsWithStatus(
      storage.approval.update(
        ctx,
        'jane-client',
        put({ ...current, status: { conditions: [...conditions, denied] } }),
      ),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(causes(both), [
      'status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    ]);
    const twice = await rejectsWithStatus(
      storage.approval.update(
        ctx,
        'jane-client',
        put({ ...current, status: { conditions: [...conditions, approved] } }),
      ),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(causes(twice), ['status.conditions[1].type: Duplicate value: "Approved"']);
    const removed = await rejectsWithStatus(
      storage.approval.update(ctx, 'jane-client', put({ ...current, status: {} })),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(causes(removed), [
      'status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
    ]);
    const falseApproval = await rejectsWithStatus(
      storage.certificateSigningRequests
        .create(ctx, csr('other'), { options: {} })
        .then((c) =>
          storage.approval.update(
            ctx,
            'other',
            put({ ...c, status: { conditions: [{ ...denied, status: 'False' }] } }),
          ),
        ),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(causes(falseApproval), [
      'status.conditions[0].status: Unsupported value: "False": supported values: "True"',
    ]);
  });

  it('issues the certificate once through /status, keeping Approved and printing Approved,Issued', async () => {
    const current = await storage.status.get(ctx, 'jane-client', {});
    const notPem = Buffer.from('hello').toString('base64');
    const bad = await rejectsWithStatus(
      storage.status.update(
        ctx,
        'jane-client',
        put({ ...current, status: { ...current.status, certificate: notPem } }),
      ),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(causes(bad), [
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    ]);
    const wrongType = Buffer.from(newTestCSR('x').pem).toString('base64');
    const typed = await rejectsWithStatus(
      storage.status.update(
        ctx,
        'jane-client',
        put({ ...current, status: { ...current.status, certificate: wrongType } }),
      ),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(causes(typed), [
      'status.certificate: Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"',
    ]);
    // /status keeps the stored Approved condition rather than a changed one, and sets the certificate.
    const certificate = Buffer.from(testCertificate).toString('base64');
    const { object } = await storage.status.update(
      ctx,
      'jane-client',
      put({ ...current, status: { conditions: [{ ...approved, reason: 'Changed' }], certificate } }),
    );
    assert.equal(object.status?.conditions?.[0]?.reason, 'KubectlApprove');
    assert.equal(object.status.certificate, certificate);
    const table = storage.certificateSigningRequests.convertToTable(ctx, object, {});
    assert.equal(table.rows[0]?.cells[5], 'Approved,Issued');
    const twice = Buffer.from(testCertificate + testCertificate).toString('base64');
    const again = await rejectsWithStatus(
      storage.status.update(
        ctx,
        'jane-client',
        put({ ...object, status: { ...object.status, certificate: twice } }),
      ),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(causes(again), [
      'status.certificate: Forbidden: updates may not modify existing certificate content',
    ]);
  });
});
