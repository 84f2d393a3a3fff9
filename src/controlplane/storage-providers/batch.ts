// The batch group's storage (pkg/registry/batch/rest/storage_batch.go): batch/v1 jobs and cronjobs
// with their status. The job and cronjob controllers belong to kube-controller-manager and do not
// run here.
import { cronJobStorageMap } from '../../registry/batch/cronjob/storage.js';
import { jobStorageMap } from '../../registry/batch/job/storage.js';
import { groupStorageProvider, type RESTStorageProvider } from './provider.js';

export const batchStorageProvider: RESTStorageProvider = groupStorageProvider('batch', () => ({
  group: 'batch',
  versions: [{ version: 'v1', resources: { jobs: jobStorageMap, cronjobs: cronJobStorageMap } }],
}));
