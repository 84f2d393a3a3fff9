// authorization.k8s.io (pkg/registry/authorization/rest/storage_authorization.go): the access and
// rules reviews, answered by the configured authorizer.
import {
  newLocalSubjectAccessReviewREST,
  newSelfSubjectAccessReviewREST,
  newSubjectAccessReviewREST,
} from '../../registry/authorization/access-review.js';
import { SelfSubjectRulesReviewREST } from '../../registry/authorization/rules-review.js';
import { groupStorageProvider } from './provider.js';

export const authorizationStorageProvider = groupStorageProvider(
  'authorization.k8s.io',
  ({ authorizer }) => ({
    group: 'authorization.k8s.io',
    versions: [
      {
        version: 'v1',
        resources: {
          selfsubjectaccessreviews: () =>
            Promise.resolve({ selfsubjectaccessreviews: newSelfSubjectAccessReviewREST(authorizer) }),
          selfsubjectrulesreviews: () =>
            Promise.resolve({ selfsubjectrulesreviews: new SelfSubjectRulesReviewREST(authorizer) }),
          subjectaccessreviews: () =>
            Promise.resolve({ subjectaccessreviews: newSubjectAccessReviewREST(authorizer) }),
          localsubjectaccessreviews: () =>
            Promise.resolve({ localsubjectaccessreviews: newLocalSubjectAccessReviewREST(authorizer) }),
        },
      },
    ],
  }),
);
