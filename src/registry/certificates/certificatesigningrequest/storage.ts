// CertificateSigningRequest storage (pkg/registry/certificates/certificates/storage/storage.go):
// `/certificatesigningrequests` (cluster-scoped, short name csr) with its status and approval
// subresources.
import type {
  CertificateSigningRequest,
  CertificateSigningRequestList,
} from '../../../api/certificates/v1/certificate-signing-request.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import { clockFor } from '../../generic/rest-options.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import {
  csrApprovalStrategy,
  csrAttrs,
  csrDeleteStrategy,
  csrFieldLabelConversion,
  csrStatusStrategy,
  csrStrategy,
} from './strategy.js';
import { csrTableConvertor } from './table.js';

export const csrResource = { group: 'certificates.k8s.io', resource: 'certificatesigningrequests' } as const;

export interface CertificateSigningRequestStorage {
  readonly certificateSigningRequests: Store<CertificateSigningRequest>;
  readonly status: StatusREST<CertificateSigningRequest>;
  /** The approval subresource: the same get and update shape as /status, with its own strategy. */
  readonly approval: StatusREST<CertificateSigningRequest>;
}

export async function newCertificateSigningRequestREST(
  opts: CoreStorageOptions,
): Promise<CertificateSigningRequestStorage> {
  const clock = clockFor(opts.restOptionsGetter, csrResource);
  const now = (): number => clock.now();
  const { store, status } = await newStoreWithStatus<CertificateSigningRequest>(
    {
      qualifiedResource: csrResource,
      singularName: 'certificatesigningrequest',
      newFunc: () => ({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest' }),
      newListFunc: () =>
        ({
          apiVersion: 'certificates.k8s.io/v1',
          kind: 'CertificateSigningRequestList',
          metadata: {},
          items: [],
        }) satisfies CertificateSigningRequestList,
      createStrategy: csrStrategy,
      updateStrategy: csrStrategy,
      deleteStrategy: csrDeleteStrategy,
      tableConvertor: csrTableConvertor,
      fieldLabelConversion: csrFieldLabelConversion,
      shortNames: ['csr'],
      // kube's CSR strategy keeps no metadata.generation.
      trackGeneration: false,
    },
    opts,
    { attrFunc: csrAttrs, statusStrategy: csrStatusStrategy(now) },
  );
  return {
    certificateSigningRequests: store,
    status,
    approval: new StatusREST(store, csrApprovalStrategy(now)),
  };
}
