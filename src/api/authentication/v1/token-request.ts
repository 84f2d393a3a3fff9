// authentication.k8s.io/v1 TokenRequest: what POST serviceaccounts/<name>/token takes and answers.
import type { KubeObject, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, groupKind } from '../../schema/api-module.js';
import { atomicList, int64, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';

export const authenticationV1 = { group: 'authentication.k8s.io', version: 'v1' } as const;
export const authenticationV1Def = apiDefinitions('authentication', 'v1');

/** The object a token is bound to: a Pod or a Secret of the service account's namespace. */
export interface BoundObjectReference {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

export interface TokenRequestSpec {
  audiences?: string[];
  expirationSeconds?: number;
  boundObjectRef?: BoundObjectReference | null;
}

export interface TokenRequestStatus {
  token: string;
  expirationTimestamp: string;
}

export interface TokenRequest extends KubeObject {
  apiVersion?: 'authentication.k8s.io/v1';
  kind?: 'TokenRequest';
  metadata?: ObjectMeta;
  spec: TokenRequestSpec;
  status?: TokenRequestStatus;
}

export const tokenRequestKind = groupKind(
  authenticationV1,
  'TokenRequest',
  authenticationV1Def('TokenRequest'),
);

/** kube's default for spec.expirationSeconds (SetDefaults_TokenRequestSpec). */
export const defaultTokenExpirationSeconds = 3600;

const BOUND_OBJECT_REFERENCE = authenticationV1Def('BoundObjectReference');
const TOKEN_REQUEST_SPEC = authenticationV1Def('TokenRequestSpec');
const TOKEN_REQUEST_STATUS = authenticationV1Def('TokenRequestStatus');

export const tokenRequestModule: APIModule = {
  definitions: {
    [BOUND_OBJECT_REFERENCE]: struct('A reference to an object a token is bound to.', {
      apiVersion: str('API version of the referent.'),
      kind: str("Kind of the referent. Valid kinds are 'Pod' and 'Secret'."),
      name: str('Name of the referent.'),
      uid: str('UID of the referent.'),
    }),
    [TOKEN_REQUEST_SPEC]: struct(
      'The parameters a client gives for a token.',
      {
        audiences: atomicList(
          str(),
          'The audiences the token is meant for; the API server audiences when empty.',
        ),
        boundObjectRef: ref(BOUND_OBJECT_REFERENCE, 'The object the token is bound to.'),
        expirationSeconds: int64('How long the token is valid, in seconds.', {
          default: defaultTokenExpirationSeconds,
        }),
      },
      { required: ['audiences'] },
    ),
    [TOKEN_REQUEST_STATUS]: struct(
      'The issued token.',
      {
        expirationTimestamp: ref(TIME, 'When the token expires.'),
        token: str('The opaque bearer token.'),
      },
      { required: ['token', 'expirationTimestamp'] },
    ),
    [authenticationV1Def('TokenRequest')]: struct(
      'Requests a token for a given service account.',
      {
        apiVersion: str('Versioned schema of this representation.'),
        kind: str('REST resource this object represents.'),
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        spec: ref(TOKEN_REQUEST_SPEC, 'What the token is requested for.', { default: {} }),
        status: ref(TOKEN_REQUEST_STATUS, 'The issued token.', { default: {} }),
      },
      { required: ['spec'] },
    ),
  },
  kinds: [tokenRequestKind],
  // k8s.io/api/authentication/v1 generated.proto.
  protobuf: {
    [authenticationV1Def('TokenRequest')]: { metadata: 1, spec: 2, status: 3 },
    [TOKEN_REQUEST_SPEC]: { audiences: 1, expirationSeconds: pointer(4), boundObjectRef: 3 },
    [BOUND_OBJECT_REFERENCE]: { kind: 1, apiVersion: 2, name: 3, uid: 4 },
    [TOKEN_REQUEST_STATUS]: { token: 1, expirationTimestamp: 2 },
  },
};
