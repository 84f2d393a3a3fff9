// An issuer's signing keys: the OIDC discovery document names the JWKS; the key set is fetched on
// first use and fetched again when a token names a key it does not hold (as go-oidc's remote key
// set does), with one fetch in flight at a time. TLS trusts issuer.certificateAuthority when given.
import { request } from 'node:https';
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

const timeoutMs = 10_000;

export function getJSON(url: string, ca: string | undefined, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        timeout: timeoutMs,
        ...(ca === undefined ? {} : { ca }),
        ...(signal === undefined ? {} : { signal }),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) {
            reject(new Error(`${code} ${res.statusMessage ?? ''}: ${text}`.trim()));
            return;
          }
          try {
            resolve(JSON.parse(text) as unknown);
          } catch (err) {
            reject(new Error(`failed to decode provider response: ${(err as Error).message}`));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
    req.on('error', reject);
    req.end();
  });
}

export interface IssuerKeysOptions {
  readonly issuerURL: string;
  /** Where the discovery document is (kube's issuer.discoveryURL); `<issuer>/.well-known/openid-configuration` by default. */
  readonly discoveryURL?: string;
  readonly ca?: string;
}

export class IssuerKeys {
  readonly #opts: IssuerKeysOptions;
  #jwksURI: string | undefined;
  #keys: JWTVerifyGetKey | undefined;
  #fetching: Promise<JWTVerifyGetKey> | undefined;

  constructor(opts: IssuerKeysOptions) {
    this.#opts = opts;
  }

  async #discover(): Promise<string> {
    const base = this.#opts.issuerURL.replace(/\/$/, '');
    const url = this.#opts.discoveryURL ?? `${base}/.well-known/openid-configuration`;
    const doc = (await getJSON(url, this.#opts.ca)) as { issuer?: unknown; jwks_uri?: unknown };
    // go-oidc's NewProvider: the document must name the issuer it was asked for (not with a discoveryURL).
    if (this.#opts.discoveryURL === undefined && doc.issuer !== this.#opts.issuerURL)
      throw new Error(
        `oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(this.#opts.issuerURL)} got ${JSON.stringify(doc.issuer)}`,
      );
    if (typeof doc.jwks_uri !== 'string') throw new Error('oidc: discovery document has no jwks_uri');
    return doc.jwks_uri;
  }

  #fetch(): Promise<JWTVerifyGetKey> {
    this.#fetching ??= (async () => {
      try {
        this.#jwksURI ??= await this.#discover();
        const set = (await getJSON(this.#jwksURI, this.#opts.ca)) as JSONWebKeySet;
        if (!Array.isArray(set.keys)) throw new Error('oidc: JWKS has no keys');
        this.#keys = createLocalJWKSet(set);
        return this.#keys;
      } finally {
        this.#fetching = undefined;
      }
    })();
    return this.#fetching;
  }

  /** jose's key lookup: the cached set, fetched again once for a key it does not hold. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    const keys = this.#keys ?? (await this.#fetch());
    try {
      return await keys(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
      return (await this.#fetch())(header, token);
    }
  };
}
