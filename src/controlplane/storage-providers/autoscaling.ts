// autoscaling (pkg/registry/autoscaling/rest/storage_autoscaling.go): horizontalpodautoscaler(+status)
// at v2, the storage version, and at v1 through a converting view of the same store.
import {
  newHorizontalPodAutoscalerREST,
  type HorizontalPodAutoscalerStorage,
} from '../../registry/autoscaling/horizontalpodautoscaler/storage.js';
import { groupStorageProvider, type GroupStorageOptions } from './provider.js';

export const autoscalingStorageProvider = groupStorageProvider('autoscaling', () => {
  // Both versions share one store, built by whichever version is enabled first.
  let hpa: Promise<HorizontalPodAutoscalerStorage> | undefined;
  const shared = (opts: GroupStorageOptions): Promise<HorizontalPodAutoscalerStorage> =>
    (hpa ??= newHorizontalPodAutoscalerREST(opts));
  return {
    group: 'autoscaling',
    versions: [
      {
        version: 'v2',
        resources: {
          horizontalpodautoscalers: async (opts) => {
            const s = await shared(opts);
            return {
              horizontalpodautoscalers: s.horizontalPodAutoscalers,
              'horizontalpodautoscalers/status': s.status,
            };
          },
        },
      },
      {
        version: 'v1',
        resources: {
          horizontalpodautoscalers: async (opts) => {
            const s = await shared(opts);
            return { horizontalpodautoscalers: s.v1, 'horizontalpodautoscalers/status': s.v1Status };
          },
        },
      },
    ],
  };
});
