// The OIDC and structured authentication flags (kube-apiserver's Authentication section), each
// writing one ServerRunOptions field.
import { flag, type Spec } from './flag-helpers.js';
import { setMember } from '../machinery/json/set-member.js';
import { parseListFlag } from './flag-values.js';

const authn = 'Authentication';

function parseRequiredClaims(raw: string): [string, string][] {
  return parseListFlag(raw).map((pair) => {
    const i = pair.indexOf('=');
    if (i <= 0) throw new Error(`${pair} must be formatted as key=value`);
    return [pair.slice(0, i), pair.slice(i + 1)];
  });
}

export const oidcFlags: Spec[] = [
  flag(
    {
      section: authn,
      name: 'authentication-config',
      kind: 'string',
      usage:
        'File with Authentication Configuration to configure the JWT Token authenticator or the anonymous authenticator. Note: This feature is in Beta since v1.30. --feature-gate=StructuredAuthenticationConfiguration=true needs to be set for enabling this feature. This feature is mutually exclusive with the oidc-* flags.',
    },
    (o, v) => (o.authenticationConfigFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'oidc-issuer-url',
      kind: 'string',
      usage:
        'The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT).',
    },
    (o, v) => (o.oidc.issuerURL = v),
  ),
  flag(
    {
      section: authn,
      name: 'oidc-client-id',
      kind: 'string',
      usage: 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.',
    },
    (o, v) => (o.oidc.clientID = v),
  ),
  flag(
    {
      section: authn,
      name: 'oidc-ca-file',
      kind: 'string',
      usage:
        "If set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file, otherwise the host's root CA set will be used.",
    },
    (o, v) => (o.oidc.caFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'oidc-username-claim',
      kind: 'string',
      usage:
        "The OpenID claim to use as the user name. Note that claims other than the default ('sub') is not guaranteed to be unique and immutable.",
      def: 'sub',
    },
    (o, v) => (o.oidc.usernameClaim = v),
  ),
  flag(
    {
      section: authn,
      name: 'oidc-username-prefix',
      kind: 'string',
      usage:
        "If provided, all usernames will be prefixed with this value. If not provided, username claims other than 'email' are prefixed by the issuer URL to avoid clashes. To skip any prefixing, provide the value '-'.",
    },
    (o, v) => (o.oidc.usernamePrefix = v),
  ),
  flag(
    {
      section: authn,
      name: 'oidc-groups-claim',
      kind: 'string',
      usage:
        'If provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is expected to be a string or array of strings.',
    },
    (o, v) => (o.oidc.groupsClaim = v),
  ),
  flag(
    {
      section: authn,
      name: 'oidc-groups-prefix',
      kind: 'string',
      usage:
        'If provided, all groups will be prefixed with this value to prevent conflicts with other authentication strategies.',
    },
    (o, v) => (o.oidc.groupsPrefix = v),
  ),
  flag(
    {
      section: authn,
      name: 'oidc-required-claim',
      kind: 'map',
      usage:
        'A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present in the ID Token with a matching value. Repeat this flag to specify multiple claims.',
    },
    (o, v) => {
      for (const [k, val] of parseRequiredClaims(v)) setMember(o.oidc.requiredClaims, k, val);
    },
  ),
  flag(
    {
      section: authn,
      name: 'oidc-signing-algs',
      kind: 'strings',
      usage:
        "Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a supported 'alg' header values are: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512.",
      def: '[RS256]',
    },
    (o, v) => o.oidc.signingAlgs.push(...parseListFlag(v)),
  ),
];
