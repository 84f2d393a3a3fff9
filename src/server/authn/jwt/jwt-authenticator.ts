// One JWT authenticator (kube's oidc token authenticator behind --oidc-* and each jwt entry of
// --authentication-config): a token whose unverified `iss` is not this issuer is left to the other
// authenticators; one that is must verify (signature by a key of the issuer's JWKS, an accepted
// algorithm, exp/nbf, an accepted audience) and map to a user, or it is refused.
import { decodeJwt, jwtVerify } from 'jose';
import type { AuthenticationResult } from '../token-auth.js';
import type { JWTAuthenticatorConfig } from './authentication-config.js';
import { ClaimError, ClaimMapper } from './claim-mapper.js';
import { IssuerKeys } from './issuer-keys.js';
import { supportedSigningAlgs } from './load-authentication-config.js';

export interface JWTAuthenticatorOptions {
  readonly config: JWTAuthenticatorConfig;
  /** Milliseconds since the epoch; injected so tests can move time. */
  readonly now?: () => number;
}

const none: AuthenticationResult = { kind: 'none' };

function unverifiedIssuer(token: string): string | undefined {
  if (token.split('.').length !== 3) return undefined;
  try {
    const iss = decodeJwt(token).iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

export class JWTAuthenticator {
  readonly #config: JWTAuthenticatorConfig;
  readonly #mapper: ClaimMapper;
  readonly #keys: IssuerKeys;
  readonly #now: () => number;

  private constructor(opts: JWTAuthenticatorOptions, mapper: ClaimMapper) {
    this.#config = opts.config;
    this.#mapper = mapper;
    this.#now = opts.now ?? Date.now;
    const issuer = opts.config.issuer;
    this.#keys = new IssuerKeys({
      issuerURL: issuer.url,
      ...(issuer.discoveryURL === undefined || issuer.discoveryURL === ''
        ? {}
        : { discoveryURL: issuer.discoveryURL }),
      ...(issuer.certificateAuthority === undefined ? {} : { ca: issuer.certificateAuthority }),
    });
  }

  /** Compiles the config's CEL expressions; a bad one stops the start. */
  static async create(opts: JWTAuthenticatorOptions): Promise<JWTAuthenticator> {
    return new JWTAuthenticator(opts, await ClaimMapper.create(opts.config));
  }

  readonly authenticate = async (token: string): Promise<AuthenticationResult> => {
    const issuer = this.#config.issuer;
    if (unverifiedIssuer(token) !== issuer.url) return none;
    let claims: Record<string, unknown>;
    try {
      const verified = await jwtVerify(token, this.#keys.getKey, {
        issuer: issuer.url,
        algorithms: [...(this.#config.signingAlgs ?? supportedSigningAlgs)],
        currentDate: new Date(this.#now()),
        requiredClaims: ['exp'],
      });
      claims = verified.payload;
    } catch (err) {
      return { kind: 'invalid', reason: `oidc: verify token: ${(err as Error).message}` };
    }
    const aud = claims.aud;
    const tokenAuds = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? (aud as unknown[]) : [];
    if (!issuer.audiences.some((a) => tokenAuds.includes(a)))
      return {
        kind: 'invalid',
        reason: `oidc: verify token: oidc: expected audience in ${JSON.stringify(issuer.audiences)} got ${JSON.stringify(tokenAuds)}`,
      };
    try {
      return { kind: 'user', user: this.#mapper.map(claims) };
    } catch (err) {
      if (err instanceof ClaimError) return { kind: 'invalid', reason: err.message };
      throw err;
    }
  };
}
