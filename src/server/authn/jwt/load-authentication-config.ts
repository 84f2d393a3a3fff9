// --authentication-config read and checked (k8s.io/apiserver/pkg/apis/apiserver/validation), and
// the --oidc-* flags turned into the same JWT authenticator as kube's BuiltInAuthenticationOptions
// does, so one authenticator serves both.
import { readFile } from 'node:fs/promises';
import { yamlLibrary } from '../../../machinery/yaml/yaml-library.js';
import {
  authenticationConfigVersions,
  type AuthenticationConfiguration,
  type JWTAuthenticatorConfig,
  type PrefixedClaimOrExpression,
} from './authentication-config.js';

/** oidc.SupportedSigningAlgs less the symmetric ones: what a JWKS of public keys can verify. */
export const supportedSigningAlgs: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
];

export interface OidcFlags {
  readonly issuerURL: string;
  readonly clientID: string;
  readonly caFile: string;
  readonly usernameClaim: string;
  readonly usernamePrefix: string;
  readonly groupsClaim: string;
  readonly groupsPrefix: string;
  readonly requiredClaims: Readonly<Record<string, string>>;
  readonly signingAlgs: readonly string[];
}

/** Whether any --oidc-* flag differs from its default (kube's OIDC.FlagsSet). */
export function oidcFlagsSet(f: OidcFlags): boolean {
  return (
    f.issuerURL !== '' ||
    f.clientID !== '' ||
    f.caFile !== '' ||
    f.usernameClaim !== 'sub' ||
    f.usernamePrefix !== '' ||
    f.groupsClaim !== '' ||
    f.groupsPrefix !== '' ||
    Object.keys(f.requiredClaims).length > 0 ||
    f.signingAlgs.join(',') !== 'RS256'
  );
}

export function validateOidcFlags(f: OidcFlags, authenticationConfigFile: string): string[] {
  const errs: string[] = [];
  if (authenticationConfigFile !== '' && oidcFlagsSet(f))
    errs.push('authentication-config file and oidc-* flags are mutually exclusive');
  if ((f.issuerURL === '') !== (f.clientID === ''))
    errs.push('oidc-issuer-url and oidc-client-id must be specified together');
  for (const alg of f.signingAlgs)
    if (!supportedSigningAlgs.includes(alg))
      errs.push(`oidc-signing-algs: unsupported signing algorithm ${JSON.stringify(alg)}`);
  return errs;
}

/** The flags as one JWT authenticator; the legacy prefix rule: claims other than email get `<issuer>#`. */
export async function jwtAuthenticatorFromOidcFlags(f: OidcFlags): Promise<JWTAuthenticatorConfig> {
  let usernamePrefix = f.usernamePrefix;
  if (usernamePrefix === '' && f.usernameClaim !== 'email') usernamePrefix = `${f.issuerURL}#`;
  if (usernamePrefix === '-') usernamePrefix = '';
  const ca = f.caFile === '' ? undefined : await readFile(f.caFile, 'utf8');
  return {
    issuer: {
      url: f.issuerURL,
      audiences: [f.clientID],
      ...(ca === undefined ? {} : { certificateAuthority: ca }),
    },
    claimMappings: {
      username: { claim: f.usernameClaim, prefix: usernamePrefix },
      ...(f.groupsClaim === '' ? {} : { groups: { claim: f.groupsClaim, prefix: f.groupsPrefix } }),
    },
    claimValidationRules: Object.entries(f.requiredClaims).map(([claim, requiredValue]) => ({
      claim,
      requiredValue,
    })),
    signingAlgs: f.signingAlgs,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function validatePrefixed(
  m: PrefixedClaimOrExpression | undefined,
  path: string,
  opts: { required: boolean },
): string[] {
  if (m === undefined || (m.claim === undefined && m.expression === undefined && m.prefix === undefined))
    return opts.required ? [`${path}: Required value: claim or expression is required`] : [];
  const claim = m.claim ?? '';
  const expression = m.expression ?? '';
  if (claim === '' && expression === '') return [`${path}: Required value: claim or expression is required`];
  if (claim !== '' && expression !== '')
    return [`${path}: Invalid value: "": claim and expression can't both be set`];
  if (claim !== '' && m.prefix === undefined)
    return [
      `${path}.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing`,
    ];
  if (expression !== '' && m.prefix !== undefined)
    return [
      `${path}.prefix: Invalid value: ${JSON.stringify(m.prefix)}: may not be specified when expression is set`,
    ];
  return [];
}

function validateIssuer(a: JWTAuthenticatorConfig, path: string, seen: Set<string>): string[] {
  const errs: string[] = [];
  const url = a.issuer.url;
  if (url === '') errs.push(`${path}.issuer.url: Required value`);
  else {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      errs.push(`${path}.issuer.url: Invalid value: ${JSON.stringify(url)}: must be a valid URL`);
    }
    if (parsed !== undefined && parsed.protocol !== 'https:')
      errs.push(`${path}.issuer.url: Invalid value: ${JSON.stringify(url)}: URL scheme must be https`);
    if (seen.has(url)) errs.push(`${path}.issuer.url: Duplicate value: ${JSON.stringify(url)}`);
    seen.add(url);
  }
  const auds = a.issuer.audiences;
  if (auds.length === 0)
    errs.push(`${path}.issuer.audiences: Required value: at least one ${path}.issuer.audiences is required`);
  const policy = a.issuer.audienceMatchPolicy ?? '';
  if (auds.length > 1 && policy !== 'MatchAny')
    errs.push(
      `${path}.issuer.audienceMatchPolicy: Invalid value: ${JSON.stringify(policy)}: audienceMatchPolicy must be MatchAny for multiple audiences`,
    );
  if (auds.length === 1 && policy !== '' && policy !== 'MatchAny')
    errs.push(
      `${path}.issuer.audienceMatchPolicy: Invalid value: ${JSON.stringify(policy)}: audienceMatchPolicy must be empty or MatchAny for single audience`,
    );
  return errs;
}

function validateJWT(a: JWTAuthenticatorConfig, path: string, seen: Set<string>): string[] {
  const errs = validateIssuer(a, path, seen);
  errs.push(
    ...validatePrefixed(a.claimMappings.username, `${path}.claimMappings.username`, { required: true }),
  );
  errs.push(...validatePrefixed(a.claimMappings.groups, `${path}.claimMappings.groups`, { required: false }));
  (a.claimValidationRules ?? []).forEach((r, i) => {
    const at = `${path}.claimValidationRules[${i}]`;
    const claim = r.claim ?? '';
    const expression = r.expression ?? '';
    if (claim === '' && expression === '')
      errs.push(`${at}: Required value: claim or expression is required`);
    if (claim !== '' && expression !== '')
      errs.push(`${at}: Invalid value: ${JSON.stringify(claim)}: claim and expression can't both be set`);
    if (expression !== '' && r.requiredValue !== undefined && r.requiredValue !== '')
      errs.push(
        `${at}.requiredValue: Invalid value: ${JSON.stringify(r.requiredValue)}: requiredValue can't be set when expression is set`,
      );
  });
  (a.claimMappings.extra ?? []).forEach((e, i) => {
    const at = `${path}.claimMappings.extra[${i}]`;
    if (e.key === '') errs.push(`${at}.key: Required value`);
    else if (e.key !== e.key.toLowerCase())
      errs.push(`${at}.key: Invalid value: ${JSON.stringify(e.key)}: key must be lowercase`);
    else if (!e.key.includes('/'))
      errs.push(
        `${at}.key: Invalid value: ${JSON.stringify(e.key)}: must be a domain-prefixed path (such as "acme.io/foo")`,
      );
    if (e.valueExpression === '')
      errs.push(`${at}.valueExpression: Required value: valueExpression is required`);
  });
  (a.userValidationRules ?? []).forEach((r, i) => {
    if (r.expression === '')
      errs.push(`${path}.userValidationRules[${i}].expression: Required value: expression is required`);
  });
  return errs;
}

/** The file's authenticators, every problem reported at once as kube's field errors. */
export function parseAuthenticationConfig(text: string): AuthenticationConfiguration {
  const doc: unknown = yamlLibrary().parse(text);
  if (!isRecord(doc)) throw new Error('authentication configuration must be an object');
  const version = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
  if (
    doc.kind !== 'AuthenticationConfiguration' ||
    !(authenticationConfigVersions as readonly string[]).includes(version)
  )
    throw new Error(
      `no kind "${String(doc.kind)}" is registered for version "${version}" in scheme "pkg/apis/apiserver"`,
    );
  const raw = Array.isArray(doc.jwt) ? (doc.jwt as unknown[]) : [];
  const seen = new Set<string>();
  const errs: string[] = [];
  const jwt: JWTAuthenticatorConfig[] = [];
  raw.forEach((a, i) => {
    const at = `jwt[${i}]`;
    if (!isRecord(a) || !isRecord(a.issuer)) {
      errs.push(`${at}.issuer.url: Required value`);
      return;
    }
    if (!isRecord(a.claimMappings)) {
      errs.push(`${at}.claimMappings.username: Required value: claim or expression is required`);
      return;
    }
    const issuer = {
      ...a.issuer,
      url: typeof a.issuer.url === 'string' ? a.issuer.url : '',
      audiences: Array.isArray(a.issuer.audiences) ? (a.issuer.audiences as string[]) : [],
    };
    const config = { ...a, issuer } as unknown as JWTAuthenticatorConfig;
    errs.push(...validateJWT(config, at, seen));
    jwt.push(config);
  });
  if (errs.length > 0) throw new Error(errs.length === 1 ? (errs[0] ?? '') : `[${errs.join(', ')}]`);
  const anonymous = isRecord(doc.anonymous)
    ? {
        anonymous: {
          enabled: doc.anonymous.enabled === true,
          ...(Array.isArray(doc.anonymous.conditions)
            ? { conditions: doc.anonymous.conditions as { path: string }[] }
            : {}),
        },
      }
    : {};
  return {
    apiVersion: version,
    kind: 'AuthenticationConfiguration',
    jwt,
    ...anonymous,
  };
}

export async function loadAuthenticationConfig(path: string): Promise<AuthenticationConfiguration> {
  return parseAuthenticationConfig(await readFile(path, 'utf8'));
}
