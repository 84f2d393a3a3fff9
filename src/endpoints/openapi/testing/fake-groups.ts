// Storages with only the methods the OpenAPI builder looks at, shaped like the core group.
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import type { Storage } from '../../../registry/rest/capabilities.js';

const notUsed = (): never => {
  throw new Error('not used by OpenAPI');
};

interface FakeSpec {
  apiVersion: string;
  kind: string;
  namespaced: boolean;
  verbs: readonly string[];
}

const methodsOf: Record<string, readonly string[]> = {
  get: ['get'],
  list: ['list', 'convertToTable'],
  watch: ['watch'],
  create: ['create'],
  update: ['update'],
  delete: ['delete'],
  deletecollection: ['deleteCollection'],
};

export function fakeStorage(spec: FakeSpec): Storage {
  const storage: Record<string, unknown> = {
    newObject: (): KubeObject => ({ apiVersion: spec.apiVersion, kind: spec.kind }),
    destroy: () => undefined,
    namespaceScoped: () => spec.namespaced,
  };
  if (spec.verbs.includes('list')) {
    storage['newList'] = (): KubeList => ({
      apiVersion: spec.apiVersion,
      kind: `${spec.kind}List`,
      metadata: {},
      items: [],
    });
  }
  for (const verb of spec.verbs) for (const m of methodsOf[verb] ?? []) storage[m] = notUsed;
  return storage as unknown as Storage;
}

const all = ['get', 'list', 'watch', 'create', 'update', 'delete', 'deletecollection'];

export function fakeCoreGroup(): APIGroupInfo {
  const v1 = (kind: string, namespaced: boolean, verbs: readonly string[] = all): Storage =>
    fakeStorage({ apiVersion: 'v1', kind, namespaced, verbs });
  return {
    group: '',
    prioritizedVersions: ['v1'],
    versionedResourcesStorageMap: {
      v1: {
        configmaps: v1('ConfigMap', true),
        secrets: v1('Secret', true),
        namespaces: v1('Namespace', false, ['get', 'list', 'watch', 'create', 'update', 'delete']),
        'namespaces/status': v1('Namespace', false, ['get', 'update']),
        'namespaces/finalize': v1('Namespace', false, ['update']),
      },
    },
  };
}
