// scheduling.k8s.io (pkg/registry/scheduling/rest/storage_scheduling.go): v1 priorityclasses.
import { newPriorityClassREST } from '../../registry/scheduling/priorityclass/storage.js';
import { groupStorageProvider } from './provider.js';

export const schedulingStorageProvider = groupStorageProvider('scheduling.k8s.io', () => ({
  group: 'scheduling.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: { priorityclasses: async (opts) => ({ priorityclasses: await newPriorityClassREST(opts) }) },
    },
  ],
}));
