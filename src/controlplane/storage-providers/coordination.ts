// coordination.k8s.io (pkg/registry/coordination/rest/storage_coordination.go): v1 leases.
import { newLeaseREST } from '../../registry/coordination/lease/storage.js';
import { groupStorageProvider } from './provider.js';

export const coordinationStorageProvider = groupStorageProvider('coordination.k8s.io', () => ({
  group: 'coordination.k8s.io',
  versions: [
    { version: 'v1', resources: { leases: async (opts) => ({ leases: await newLeaseREST(opts) }) } },
  ],
}));
