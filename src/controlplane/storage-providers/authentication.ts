// authentication.k8s.io (pkg/registry/authentication/rest/storage_authentication.go):
// selfsubjectreviews and tokenreviews. TokenRequest is served as serviceaccounts/token in the core group.
import { SelfSubjectReviewREST } from '../../registry/authentication/self-subject-review.js';
import { TokenReviewREST } from '../../registry/authentication/token-review.js';
import { groupStorageProvider } from './provider.js';

export const authenticationStorageProvider = groupStorageProvider('authentication.k8s.io', (init) => ({
  group: 'authentication.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: {
        selfsubjectreviews: () => Promise.resolve({ selfsubjectreviews: new SelfSubjectReviewREST() }),
        tokenreviews: () => Promise.resolve({ tokenreviews: new TokenReviewREST(init.tokenReview) }),
      },
    },
  ],
}));
