// authentication.k8s.io (pkg/registry/authentication/rest/storage_authentication.go):
// selfsubjectreviews. TokenRequest is served as serviceaccounts/token in the core group.
import { SelfSubjectReviewREST } from '../../registry/authentication/self-subject-review.js';
import { groupStorageProvider } from './provider.js';

export const authenticationStorageProvider = groupStorageProvider('authentication.k8s.io', () => ({
  group: 'authentication.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: {
        selfsubjectreviews: () => Promise.resolve({ selfsubjectreviews: new SelfSubjectReviewREST() }),
      },
    },
  ],
}));
