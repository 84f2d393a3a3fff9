// Generated from k8s.io/api authorization/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.authorization.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('FieldSelectorAttributes')]: { rawSelector: 'zero', requirements: 'empty' },
  [def('LabelSelectorAttributes')]: { rawSelector: 'zero', requirements: 'empty' },
  [def('LocalSubjectAccessReview')]: {},
  [def('NonResourceAttributes')]: { path: 'zero', verb: 'zero' },
  [def('NonResourceRule')]: { nonResourceURLs: 'empty' },
  [def('ResourceAttributes')]: {
    namespace: 'zero',
    verb: 'zero',
    group: 'zero',
    version: 'zero',
    resource: 'zero',
    subresource: 'zero',
    name: 'zero',
    fieldSelector: 'nil',
    labelSelector: 'nil',
  },
  [def('ResourceRule')]: { apiGroups: 'empty', resources: 'empty', resourceNames: 'empty' },
  [def('SelfSubjectAccessReview')]: {},
  [def('SelfSubjectAccessReviewSpec')]: { resourceAttributes: 'nil', nonResourceAttributes: 'nil' },
  [def('SelfSubjectRulesReview')]: {},
  [def('SelfSubjectRulesReviewSpec')]: { namespace: 'zero' },
  [def('SubjectAccessReview')]: {},
  [def('SubjectAccessReviewSpec')]: {
    resourceAttributes: 'nil',
    nonResourceAttributes: 'nil',
    user: 'zero',
    groups: 'empty',
    extra: 'empty',
    uid: 'zero',
  },
  [def('SubjectAccessReviewStatus')]: { denied: 'zero', reason: 'zero', evaluationError: 'zero' },
  [def('SubjectRulesReviewStatus')]: { evaluationError: 'zero' },
};

export const authorizationV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
