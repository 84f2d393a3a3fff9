// node.k8s.io (pkg/registry/node/rest/runtime_classes.go): v1 runtimeclasses.
import { newRuntimeClassREST } from '../../registry/node/runtimeclass/storage.js';
import { groupStorageProvider } from './provider.js';

export const nodeStorageProvider = groupStorageProvider('node.k8s.io', () => ({
  group: 'node.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: { runtimeclasses: async (opts) => ({ runtimeclasses: await newRuntimeClassREST(opts) }) },
    },
  ],
}));
