// CustomResourceDefinition storage (apiextensions-apiserver/pkg/registry/customresourcedefinition/
// etcd.go): `/customresourcedefinitions` (short name crd, category api-extensions) and its status.
// Keys live under /registry/apiextensions.k8s.io/customresourcedefinitions/, as the
// apiextensions-apiserver's SimpleRestOptionsFactory lays them out. Deleting goes through the
// customresourcecleanup finalizer (crd-store.ts).
import { apiextensionsGroup, type CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { KubeList } from '../../api/meta.js';
import { customResourceJSONCodec } from '../../storage/codec.js';
import { completeWithOptions } from '../generic/complete.js';
import type { RESTOptionsGetter } from '../generic/rest-options.js';
import { StatusREST } from '../generic/status-rest.js';
import type { Store } from '../generic/store.js';
import type { ObjectCountMetric } from '../generic/store-definition.js';
import { newDefaultTableConvertor } from '../generic/table-convertor.js';
import { CustomResourceDefinitionStore } from './crd-store.js';
import { crdDeleteStrategy, crdStatusStrategy, crdStrategy } from './strategy.js';

export const crdResource = { group: apiextensionsGroup, resource: 'customresourcedefinitions' } as const;

export interface CRDStorageOptions {
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly objectCountMetric?: ObjectCountMetric;
}

export interface CRDStorage {
  readonly customResourceDefinitions: Store<CustomResourceDefinition>;
  readonly status: StatusREST<CustomResourceDefinition>;
}

/** The group/resource key prefix of kube's SimpleRestOptionsFactory (CRDs and custom resources). */
export function groupResourcePrefixed(getter: RESTOptionsGetter): RESTOptionsGetter {
  return {
    getRESTOptions: (resource) => ({
      ...getter.getRESTOptions(resource),
      resourcePrefix: `${resource.group}/${resource.resource}`,
    }),
  };
}

/**
 * Custom resources are stored as kube keeps them, unstructured maps written with their keys sorted
 * at every level (served in that order too), whatever codec the getter gives built-in kinds.
 */
export function storedUnstructured(getter: RESTOptionsGetter): RESTOptionsGetter {
  return {
    getRESTOptions: (resource) => {
      const options = getter.getRESTOptions(resource);
      return { ...options, storageConfig: { ...options.storageConfig, codec: customResourceJSONCodec } };
    },
  };
}

export async function newCustomResourceDefinitionREST(opts: CRDStorageOptions): Promise<CRDStorage> {
  const apiVersion = `${apiextensionsGroup}/v1`;
  const completed = await completeWithOptions<CustomResourceDefinition>(
    {
      qualifiedResource: crdResource,
      singularName: 'customresourcedefinition',
      newFunc: () => ({ apiVersion, kind: 'CustomResourceDefinition' }) as CustomResourceDefinition,
      newListFunc: (): KubeList<CustomResourceDefinition> => ({
        apiVersion,
        kind: 'CustomResourceDefinitionList',
        metadata: {},
        items: [],
      }),
      createStrategy: crdStrategy,
      updateStrategy: crdStrategy,
      deleteStrategy: crdDeleteStrategy,
      tableConvertor: newDefaultTableConvertor(crdResource),
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      trackGeneration: true,
    },
    {
      restOptions: groupResourcePrefixed(opts.restOptionsGetter),
      ...(opts.objectCountMetric === undefined ? {} : { objectCountMetric: opts.objectCountMetric }),
    },
  );
  const store = new CustomResourceDefinitionStore(completed.core);
  return { customResourceDefinitions: store, status: new StatusREST(store, crdStatusStrategy) };
}
