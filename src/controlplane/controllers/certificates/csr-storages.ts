// The served certificates.k8s.io/v1 CertificateSigningRequest storages the certificate controllers
// read and write (admitted, as kube's controllers go through the API), and the parse of a request's
// spec.request they share (certificates.ParseCSR).
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import { newNotFound } from '../../../machinery/errors/index.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import { pemBlocks, wireBytes } from '../../../registry/certificates/certificatesigningrequest/pem.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isGetter,
  isGracefulDeleter,
  isLister,
  isUpdater,
  isWatcher,
  type Getter,
  type GracefulDeleter,
  type Lister,
  type Updater,
  type Watcher,
} from '../../../registry/rest/capabilities.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import { DerError } from '../../../machinery/der/der-reader.js';
import { parseCertificateRequest, type CertificateRequest } from '../../../server/tls/certificate-request.js';

export const csrResource = { group: 'certificates.k8s.io', resource: 'certificatesigningrequests' } as const;

export interface CSRStorages {
  readonly csrs: Getter & Lister & Watcher & GracefulDeleter;
  /** certificatesigningrequests/status: the certificate and the Failed condition. */
  readonly status: Updater;
  /** certificatesigningrequests/approval: the Approved and Denied conditions. */
  readonly approval: Updater;
}

/** The storages, when certificates.k8s.io/v1 is served. */
export function csrStorages(groups: readonly APIGroupInfo[]): CSRStorages | undefined {
  const v1 = groups.find((g) => g.group === csrResource.group)?.versionedResourcesStorageMap['v1'];
  const csrs = v1?.['certificatesigningrequests'];
  const status = v1?.['certificatesigningrequests/status'];
  const approval = v1?.['certificatesigningrequests/approval'];
  if (
    csrs === undefined ||
    !isGetter(csrs) ||
    !isLister(csrs) ||
    !isWatcher(csrs) ||
    !isGracefulDeleter(csrs)
  )
    return undefined;
  if (status === undefined || !isUpdater(status) || approval === undefined || !isUpdater(approval))
    return undefined;
  return { csrs, status, approval };
}

/** certificates.ParseCSR of spec.request: the request, or Go's error text. */
export function parseCSR(csr: CertificateSigningRequest): CertificateRequest | { readonly error: string } {
  const block = pemBlocks(wireBytes(csr.spec?.request).toString('latin1'))[0];
  if (block?.type !== 'CERTIFICATE REQUEST') return { error: 'PEM block type must be CERTIFICATE REQUEST' };
  try {
    return parseCertificateRequest(block.bytes);
  } catch (err) {
    if (err instanceof DerError) return { error: err.message };
    throw err;
  }
}

/**
 * Changes the stored request through `target` (a subresource): `change` edits a copy of it and
 * answers false to leave it as it is (no write). Deciding on the stored object spares conflicts.
 */
export async function updateCSR(
  ctx: RequestContext,
  target: Updater,
  req: { readonly name: string; readonly change: (csr: CertificateSigningRequest) => boolean },
): Promise<void> {
  await target.update(ctx, req.name, {
    objInfo: {
      preconditions: () => undefined,
      updatedObject: (_c, old) => {
        if (old === null) return Promise.reject(newNotFound(csrResource, req.name));
        const csr = deepCopyJSON(old) as CertificateSigningRequest;
        return Promise.resolve(req.change(csr) ? csr : old);
      },
    },
    options: {},
  });
}
