// flowcontrol.apiserver.k8s.io (pkg/registry/flowcontrol/rest/storage_flowcontrol.go): v1
// flowschemas(+status) and prioritylevelconfigurations(+status).
import { newFlowSchemaREST } from '../../registry/flowcontrol/flowschema/storage.js';
import { newPriorityLevelConfigurationREST } from '../../registry/flowcontrol/prioritylevelconfiguration/storage.js';
import { groupStorageProvider } from './provider.js';

const group = 'flowcontrol.apiserver.k8s.io';

export const flowcontrolStorageProvider = groupStorageProvider(group, () => ({
  group,
  versions: [
    {
      version: 'v1',
      resources: {
        flowschemas: async (opts) => {
          const { store, status } = await newFlowSchemaREST(opts);
          return { flowschemas: store, 'flowschemas/status': status };
        },
        prioritylevelconfigurations: async (opts) => {
          const { store, status } = await newPriorityLevelConfigurationREST(opts);
          return { prioritylevelconfigurations: store, 'prioritylevelconfigurations/status': status };
        },
      },
    },
  ],
}));
