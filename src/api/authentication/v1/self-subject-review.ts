// authentication.k8s.io/v1 SelfSubjectReview: POST it and the server answers with who you are
// (`kubectl auth whoami`). Never stored.
import type { KubeObject, ObjectMeta } from '../../meta.js';
import { groupKind, type APIModule } from '../../schema/api-module.js';
import { atomicList, mapOf, ref, str, struct } from '../../schema/builders.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { authenticationV1, authenticationV1Def as def } from './token-request.js';

export interface AuthenticatedUserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface SelfSubjectReview extends KubeObject {
  metadata?: ObjectMeta;
  status?: { userInfo?: AuthenticatedUserInfo };
}

const USER_INFO = def('UserInfo');
const STATUS = def('SelfSubjectReviewStatus');

export const selfSubjectReviewModule: APIModule = {
  definitions: {
    [USER_INFO]: struct('The user a request was authenticated as.', {
      extra: mapOf(atomicList(str(), 'Values.'), 'Extra attributes from the authenticator.'),
      groups: atomicList(str(), 'The groups of the user.'),
      uid: str('A unique value for the user.'),
      username: str('The name of the user.'),
    }),
    [STATUS]: struct('Who the caller is.', { userInfo: ref(USER_INFO, 'The caller.', { default: {} }) }),
    [def('SelfSubjectReview')]: struct('Asks who the caller is.', {
      apiVersion: str('Versioned schema of this representation.'),
      kind: str('REST resource this object represents.'),
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      status: ref(STATUS, 'Filled in by the server.', { default: {} }),
    }),
  },
  kinds: [groupKind(authenticationV1, 'SelfSubjectReview', def('SelfSubjectReview'))],
  protobuf: {
    [USER_INFO]: { username: 1, uid: 2, groups: 3, extra: { field: 4, codec: 'extraValue' } },
    [STATUS]: { userInfo: 1 },
    [def('SelfSubjectReview')]: { metadata: 1, status: 2 },
  },
};
