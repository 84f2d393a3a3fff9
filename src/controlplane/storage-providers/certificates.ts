// certificates.k8s.io (pkg/registry/certificates/rest/storage_certificates.go): v1
// certificatesigningrequests(+status, +approval).
import { newCertificateSigningRequestREST } from '../../registry/certificates/certificatesigningrequest/storage.js';
import { groupStorageProvider } from './provider.js';

const group = 'certificates.k8s.io';

export const certificatesStorageProvider = groupStorageProvider(group, () => ({
  group,
  versions: [
    {
      version: 'v1',
      resources: {
        certificatesigningrequests: async (opts) => {
          const csr = await newCertificateSigningRequestREST(opts);
          return {
            certificatesigningrequests: csr.certificateSigningRequests,
            'certificatesigningrequests/status': csr.status,
            'certificatesigningrequests/approval': csr.approval,
          };
        },
      },
    },
  ],
}));
