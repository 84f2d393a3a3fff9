// policy (pkg/registry/policy/rest/storage_policy.go): v1 poddisruptionbudgets(+status).
import { newPodDisruptionBudgetREST } from '../../registry/policy/poddisruptionbudget/storage.js';
import { groupStorageProvider } from './provider.js';

export const policyStorageProvider = groupStorageProvider('policy', () => ({
  group: 'policy',
  versions: [
    {
      version: 'v1',
      resources: {
        poddisruptionbudgets: async (opts) => {
          const pdb = await newPodDisruptionBudgetREST(opts);
          return {
            poddisruptionbudgets: pdb.podDisruptionBudgets,
            'poddisruptionbudgets/status': pdb.status,
          };
        },
      },
    },
  ],
}));
