// An OIDC issuer for tests: HTTPS on loopback with a certificate of its own CA, a discovery
// document, a JWKS, and tokens signed with jose. `rotate()` adds a new signing key, which the JWKS
// serves from then on (the authenticator must fetch it again on the unknown kid).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { newTestCA } from '../../../tls/testing/test-ca.js';

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

export interface TokenOptions {
  readonly claims?: JWTPayload;
  /** Seconds from now until exp (negative: already expired); 600 by default. */
  readonly expiresIn?: number;
  readonly audience?: string | string[];
  readonly issuer?: string;
}

export class TestIssuer {
  readonly caPem: string;
  readonly #server: Server;
  readonly #keys: SigningKey[] = [];
  /** How many times the JWKS was served. */
  jwksFetches = 0;

  private constructor(server: Server, caPem: string) {
    this.#server = server;
    this.caPem = caPem;
  }

  static async start(): Promise<TestIssuer> {
    const ca = newTestCA('capstan-test-oidc-ca');
    const serving = ca.issueServer(['127.0.0.1', 'localhost']);
    const server = createServer({ cert: serving.certPem, key: serving.keyPem });
    const issuer = new TestIssuer(server, ca.caPem);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') {
        res.end(JSON.stringify({ issuer: issuer.url, jwks_uri: `${issuer.url}/keys` }));
      } else if (req.url === '/keys') {
        issuer.jwksFetches++;
        res.end(JSON.stringify({ keys: issuer.#keys.map((k) => k.jwk) }));
      } else res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await issuer.rotate();
    return issuer;
  }

  get url(): string {
    return `https://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** A new RS256 key that signs from now on; the old ones stay in the JWKS. */
  async rotate(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const kid = `key-${this.#keys.length + 1}`;
    this.#keys.push({
      kid,
      privateKey,
      jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    });
  }

  async token(audience: string, opts: TokenOptions = {}): Promise<string> {
    const key = this.#keys.at(-1);
    if (key === undefined) throw new Error('no signing key');
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ...opts.claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuer(opts.issuer ?? this.url)
      .setAudience(opts.audience ?? audience)
      .setIssuedAt(now)
      .setExpirationTime(now + (opts.expiresIn ?? 600))
      .sign(key.privateKey);
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => {
      this.#server.close(() => {
        resolve();
      });
    });
  }
}
