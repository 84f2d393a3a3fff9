// apiextensions.k8s.io (apiextensions-apiserver/pkg/apiserver/apiserver.go): v1
// customresourcedefinitions (+status). The definitions are stored and validated; serving the
// custom resources they define is later work.
import { newCustomResourceDefinitionREST } from '../../registry/apiextensions/storage.js';
import { groupStorageProvider } from './provider.js';

export const apiextensionsStorageProvider = groupStorageProvider('apiextensions.k8s.io', () => ({
  group: 'apiextensions.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: {
        customresourcedefinitions: async (opts) => {
          const crd = await newCustomResourceDefinitionREST(opts);
          return {
            customresourcedefinitions: crd.customResourceDefinitions,
            'customresourcedefinitions/status': crd.status,
          };
        },
      },
    },
  ],
}));
