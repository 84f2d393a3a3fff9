// authentication.k8s.io/v1 TokenReview: POST a bearer token and the server answers whether it
// authenticates it, and as whom (kube's tokenreviews; webhook token authenticators speak it too).
// Never stored.
import type { KubeObject, ObjectMeta } from '../../meta.js';
import { groupKind, type APIModule } from '../../schema/api-module.js';
import { atomicList, bool, ref, str, struct } from '../../schema/builders.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import type { AuthenticatedUserInfo } from './self-subject-review.js';
import { authenticationV1, authenticationV1Def as def } from './token-request.js';

export interface TokenReviewSpec {
  token?: string;
  audiences?: string[];
}

/** In Go's field order: authenticated, user, audiences, error. */
export interface TokenReviewStatus {
  authenticated?: boolean;
  user?: AuthenticatedUserInfo;
  audiences?: string[];
  error?: string;
}

export interface TokenReview extends KubeObject {
  metadata?: ObjectMeta;
  spec: TokenReviewSpec;
  status?: TokenReviewStatus;
}

const SPEC = def('TokenReviewSpec');
const STATUS = def('TokenReviewStatus');
const TOKEN_REVIEW = def('TokenReview');

export const tokenReviewModule: APIModule = {
  definitions: {
    [SPEC]: struct('The token to authenticate.', {
      audiences: atomicList(
        str(),
        'The audiences the resource server identifies as; the API server audiences when empty.',
      ),
      token: str('The opaque bearer token.'),
    }),
    [STATUS]: struct('The result of authenticating the token.', {
      audiences: atomicList(str(), 'The audiences of both the review and the token.'),
      authenticated: bool('Whether the token is associated with a known user.'),
      error: str('Why the token could not be checked.'),
      user: ref(def('UserInfo'), 'The user the token is associated with.', { default: {} }),
    }),
    [TOKEN_REVIEW]: struct(
      'Authenticates a token to a known user.',
      {
        apiVersion: str('Versioned schema of this representation.'),
        kind: str('REST resource this object represents.'),
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        spec: ref(SPEC, 'The token to authenticate.', { default: {} }),
        status: ref(STATUS, 'Filled in by the server.', { default: {} }),
      },
      { required: ['spec'] },
    ),
  },
  kinds: [groupKind(authenticationV1, 'TokenReview', TOKEN_REVIEW)],
  // k8s.io/api/authentication/v1 generated.proto.
  protobuf: {
    [TOKEN_REVIEW]: { metadata: 1, spec: 2, status: 3 },
    [SPEC]: { token: 1, audiences: 2 },
    [STATUS]: { authenticated: 1, user: 2, audiences: 4, error: 3 },
  },
};
