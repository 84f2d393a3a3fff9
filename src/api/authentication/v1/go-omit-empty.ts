// Generated from k8s.io/api authentication/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.authentication.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('BoundObjectReference')]: { kind: 'zero', apiVersion: 'zero', name: 'zero', uid: 'zero' },
  [def('SelfSubjectReview')]: {},
  [def('SelfSubjectReviewStatus')]: {},
  [def('TokenRequest')]: {},
  [def('TokenRequestSpec')]: {},
  [def('TokenRequestStatus')]: {},
  [def('TokenReview')]: {},
  [def('TokenReviewSpec')]: { token: 'zero', audiences: 'empty' },
  [def('TokenReviewStatus')]: { authenticated: 'zero', audiences: 'empty', error: 'zero' },
  [def('UserInfo')]: { username: 'zero', uid: 'zero', groups: 'empty', extra: 'empty' },
};

export const authenticationV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
