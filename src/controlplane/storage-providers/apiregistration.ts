// apiregistration.k8s.io (kube-aggregator's own group, k8s.io/kube-aggregator/pkg/registry/apiservice
// /rest/storage_apiservice.go): v1 apiservices(+status).
import { newAPIServiceREST } from '../../registry/apiregistration/apiservice/storage.js';
import { groupStorageProvider } from './provider.js';

const group = 'apiregistration.k8s.io';

export const apiregistrationStorageProvider = groupStorageProvider(group, () => ({
  group,
  versions: [
    {
      version: 'v1',
      resources: {
        apiservices: async (opts) => {
          const { store, status } = await newAPIServiceREST(opts);
          return { apiservices: store, 'apiservices/status': status };
        },
      },
    },
  ],
}));
