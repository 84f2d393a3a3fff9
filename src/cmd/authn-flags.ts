// The authentication flags (kube-apiserver's Authentication section), each writing one ServerRunOptions field.
import { flag, type Spec } from './flag-helpers.js';
import { parseBoolFlag, parseDurationFlag, parseListFlag } from './flag-values.js';

const authn = 'Authentication';
export const authnFlags: Spec[] = [
  flag(
    {
      section: authn,
      name: 'anonymous-auth',
      kind: 'bool',
      usage:
        'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated. Turned off under --authorization-mode=AlwaysAllow, even when set (as kube-apiserver); when off, requests without credentials are answered 401 on every path, /healthz, /livez, /readyz and /version included.',
      def: 'true',
    },
    (o, v) => (o.anonymousAuth = parseBoolFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'token-auth-file',
      kind: 'string',
      usage:
        'If set, the file that will be used to secure the secure port of the API server via token authentication (CSV: token,user,uid,"group1,group2").',
    },
    (o, v) => (o.tokenAuthFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'client-ca-file',
      kind: 'string',
      usage:
        'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
    },
    (o, v) => (o.clientCAFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'requestheader-client-ca-file',
      kind: 'string',
      usage:
        'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers.',
    },
    (o, v) => (o.requestHeaderClientCAFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'requestheader-allowed-names',
      kind: 'strings',
      usage:
        'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
    },
    (o, v) => o.requestHeaderAllowedNames.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'requestheader-username-headers',
      kind: 'strings',
      usage: 'List of request headers to inspect for usernames. X-Remote-User is common.',
    },
    (o, v) => o.requestHeaderUsernameHeaders.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'requestheader-group-headers',
      kind: 'strings',
      usage: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
    },
    (o, v) => o.requestHeaderGroupHeaders.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'requestheader-extra-headers-prefix',
      kind: 'strings',
      usage: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
    },
    (o, v) => o.requestHeaderExtraHeadersPrefix.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'proxy-client-cert-file',
      kind: 'string',
      usage:
        'Client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request. This includes proxying requests to a user api-server and calling out to webhook admission plugins.',
    },
    (o, v) => (o.proxyClientCertFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'proxy-client-key-file',
      kind: 'string',
      usage:
        'Private key for the client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request.',
    },
    (o, v) => (o.proxyClientKeyFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'authentication-token-webhook-config-file',
      kind: 'string',
      usage:
        'File with webhook configuration for token authentication in kubeconfig format. The API server will query the remote service to determine authentication for bearer tokens.',
    },
    (o, v) => (o.authenticationTokenWebhookConfigFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'authentication-token-webhook-cache-ttl',
      kind: 'duration',
      usage: 'The duration to cache responses from the webhook token authenticator.',
      def: '2m0s',
    },
    (o, v) => (o.authenticationTokenWebhookCacheTTLMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'authentication-token-webhook-version',
      kind: 'string',
      usage:
        'The API version of the authentication.k8s.io TokenReview to send to and expect from the webhook.',
      def: '"v1beta1"',
    },
    (o, v) => (o.authenticationTokenWebhookVersion = v),
  ),
  flag(
    {
      section: authn,
      name: 'service-account-issuer',
      kind: 'strings',
      usage:
        'Identifier of the service account token issuer: the "iss" claim of issued tokens. Repeatable: the first issues tokens, tokens of every one are accepted.',
      def: 'https://kubernetes.default.svc.cluster.local',
    },
    (o, v) => o.serviceAccountIssuers.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'service-account-jwks-uri',
      kind: 'string',
      usage:
        'Overrides the URI of the JSON Web Key Set named in the discovery document served at /.well-known/openid-configuration, for relying parties that fetch the key set from somewhere other than this server. Must be https.',
    },
    (o, v) => (o.serviceAccountJWKSURI = v),
  ),
  flag(
    {
      section: authn,
      name: 'service-account-key-file',
      kind: 'strings',
      usage:
        'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. Repeatable. Defaults to the signing key.',
    },
    (o, v) => o.serviceAccountKeyFiles.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'service-account-signing-key-file',
      kind: 'string',
      usage:
        'Path to the file that contains the current private key of the service account token issuer. When unset, an EC P-256 key is generated in <data-dir>/pki/sa.key and reused.',
    },
    (o, v) => (o.serviceAccountSigningKeyFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'api-audiences',
      kind: 'strings',
      usage:
        'Identifiers of the API. Service account tokens must carry one of them; TokenRequests without audiences get them. Defaults to the service account issuers.',
    },
    (o, v) => o.apiAudiences.push(...parseListFlag(v)),
  ),
];
