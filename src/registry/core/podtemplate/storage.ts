// PodTemplate storage (pkg/registry/core/podtemplate/storage/storage.go): the generic Store under
// `/podtemplates`; kube gives the resource no short name and no category.
import { templateStrategies } from '../pod/disabled-fields.js';
import type { PodTemplate, PodTemplateList } from '../../../api/core/v1/pod-template.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { podTemplateDeleteStrategy, podTemplateStrategy } from './strategy.js';
import { podTemplateTableConvertor } from './table.js';

export const podTemplateResource = { group: '', resource: 'podtemplates' } as const;

export function newPodTemplateREST(opts: CoreStorageOptions): Promise<Store<PodTemplate>> {
  return completeResourceStore<PodTemplate>(
    {
      qualifiedResource: podTemplateResource,
      singularName: 'podtemplate',
      newFunc: () => ({ apiVersion: 'v1', kind: 'PodTemplate' }),
      newListFunc: () =>
        ({ apiVersion: 'v1', kind: 'PodTemplateList', metadata: {}, items: [] }) satisfies PodTemplateList,
      ...templateStrategies(podTemplateStrategy, opts.featureGates, (o) => o.template),
      deleteStrategy: podTemplateDeleteStrategy,
      tableConvertor: podTemplateTableConvertor,
      trackGeneration: true,
    },
    opts,
  );
}
