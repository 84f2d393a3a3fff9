// discovery.k8s.io (pkg/registry/discovery/rest/storage_discovery.go): v1 endpointslices.
import { newEndpointSliceREST } from '../../registry/discovery/endpointslice/storage.js';
import { groupStorageProvider } from './provider.js';

export const discoveryStorageProvider = groupStorageProvider('discovery.k8s.io', () => ({
  group: 'discovery.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: { endpointslices: async (opts) => ({ endpointslices: await newEndpointSliceREST(opts) }) },
    },
  ],
}));
