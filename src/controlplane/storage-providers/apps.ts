// The apps group's storage (pkg/registry/apps/rest/storage_apps.go): apps/v1 deployments,
// statefulsets, daemonsets, replicasets and controllerrevisions with their subresources. The
// controllers that act on them belong to kube-controller-manager and do not run here.
import { controllerRevisionStorageMap } from '../../registry/apps/controllerrevision/storage.js';
import { daemonSetStorageMap } from '../../registry/apps/daemonset/storage.js';
import { deploymentStorageMap } from '../../registry/apps/deployment/storage.js';
import { replicaSetStorageMap } from '../../registry/apps/replicaset/storage.js';
import { statefulSetStorageMap } from '../../registry/apps/statefulset/storage.js';
import { groupStorageProvider, type RESTStorageProvider } from './provider.js';

export const appsStorageProvider: RESTStorageProvider = groupStorageProvider('apps', () => ({
  group: 'apps',
  versions: [
    {
      version: 'v1',
      resources: {
        deployments: deploymentStorageMap,
        statefulsets: statefulSetStorageMap,
        daemonsets: daemonSetStorageMap,
        replicasets: replicaSetStorageMap,
        controllerrevisions: controllerRevisionStorageMap,
      },
    },
  ],
}));
