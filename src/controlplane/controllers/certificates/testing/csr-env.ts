// The CertificateSigningRequest storages over in-memory SQLite on a virtual clock, with the
// writes a client makes (create as a user, approve or deny through /approval), for the
// certificate controllers' tests.
import { generateKeyPairSync } from 'node:crypto';
import {
  builtinSignerNames,
  type BuiltinSignerName,
  type CertificateSigningRequest,
} from '../../../../api/certificates/v1/certificate-signing-request.js';
import { VirtualClock } from '../../../../machinery/time/clock.js';
import { newCertificateSigningRequestREST } from '../../../../registry/certificates/certificatesigningrequest/storage.js';
import type { RESTOptionsGetter } from '../../../../registry/generic/rest-options.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../../../registry/rest/api-group-info.js';
import { internalContext, type UserInfo } from '../../../../registry/rest/context.js';
import { createCertificate } from '../../../../server/tls/certificate.js';
import { keyPem } from '../../../../server/tls/pem-files.js';
import { loadSigningCA, type SigningCA } from '../../../../server/tls/signing-ca.js';
import { csrStorages, updateCSR, type CSRStorages } from '../csr-storages.js';

export interface CSREnv {
  readonly clock: VirtualClock;
  readonly group: APIGroupInfo;
  readonly storages: CSRStorages;
  create(csr: CertificateSigningRequest, user?: UserInfo): Promise<CertificateSigningRequest>;
  get(name: string): Promise<CertificateSigningRequest | undefined>;
  decide(name: string, type: 'Approved' | 'Denied'): Promise<void>;
  close(): Promise<void>;
}

export async function newCSREnv(startMs = Date.parse('2026-03-01T00:00:00Z')): Promise<CSREnv> {
  const clock = new VirtualClock(startMs);
  const env: MemoryRESTOptions = await memoryRESTOptions();
  const getter: RESTOptionsGetter = {
    getRESTOptions: (r) => {
      const o = env.getter.getRESTOptions(r);
      return { ...o, storageConfig: { ...o.storageConfig, clock } };
    },
  };
  const csr = await newCertificateSigningRequestREST({ restOptionsGetter: getter });
  const group: APIGroupInfo = {
    group: 'certificates.k8s.io',
    prioritizedVersions: ['v1'],
    versionedResourcesStorageMap: {
      v1: {
        certificatesigningrequests: csr.certificateSigningRequests,
        'certificatesigningrequests/status': csr.status,
        'certificatesigningrequests/approval': csr.approval,
      },
    },
  };
  const storages = csrStorages([group]);
  if (storages === undefined) throw new Error('no CSR storages');
  const ctx = internalContext();
  return {
    clock,
    group,
    storages,
    create: (obj, user) =>
      csr.certificateSigningRequests.create(internalContext(user === undefined ? {} : { user }), obj, {
        options: {},
      }),
    get: (name) => csr.certificateSigningRequests.get(ctx, name, {}).catch(() => undefined),
    decide: (name, type) =>
      updateCSR(ctx, storages.approval, {
        name,
        change: (c) => {
          (c.status ??= {}).conditions = [
            ...(c.status.conditions ?? []),
            { type, status: 'True', reason: 'Test' },
          ];
          return true;
        },
      }),
    close: () => env.close(),
  };
}

/** A CA (ECDSA P-256 unless `rsa`) valid from a day before `now` for `days`. */
export function newTestCA(now: number, opts: { days?: number; rsa?: boolean } = {}): SigningCA {
  const keys =
    opts.rsa === true
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = { commonName: 'cluster-signer' };
  const cert = createCertificate(
    {
      subject: name,
      publicKey: keys.publicKey,
      notBefore: new Date(now - 86_400_000),
      notAfter: new Date(now + (opts.days ?? 365) * 86_400_000),
      isCA: true,
    },
    { name, ...keys },
  );
  const ca = loadSigningCA({ cert, key: keyPem(keys.privateKey) }, { certFile: 'ca.crt', keyFile: 'ca.key' });
  if ('error' in ca) throw new Error(ca.error);
  return ca;
}

/** One CA for every built-in signer, as the cluster signing CA serves them all. */
export const everySigner = (ca: SigningCA): ReadonlyMap<BuiltinSignerName, SigningCA> =>
  new Map(builtinSignerNames.map((name) => [name, ca]));

export const csrObject = (
  name: string,
  spec: { request: string; signerName: string; usages: string[]; expirationSeconds?: number },
): CertificateSigningRequest => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec,
});
