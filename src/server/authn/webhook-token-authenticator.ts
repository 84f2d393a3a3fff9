// Webhook token authentication (k8s.io/apiserver/plugin/pkg/authenticator/token/webhook): a bearer
// token the other authenticators do not know is sent to a remote service as an
// authentication.k8s.io/v1 TokenReview; its answers are cached for --authentication-token-webhook-cache-ttl.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname, resolve } from 'node:path';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';
import type { UserInfo } from '../../registry/rest/context.js';
import type { AuthenticationResult } from './token-auth.js';
import { intersectAudiences } from './token-authenticator.js';

/** Where the reviews go and with which credentials (the kubeconfig file's first cluster and user). */
export interface WebhookTarget {
  readonly server: string;
  readonly caPem?: string;
  readonly certPem?: string;
  readonly keyPem?: string;
  readonly token?: string;
}

interface KubeconfigFile {
  clusters?: { cluster?: Record<string, string | undefined> }[];
  users?: { user?: Record<string, string | undefined> }[];
}

async function material(
  entry: Record<string, string | undefined> | undefined,
  field: string,
  base: string,
): Promise<string | undefined> {
  const data = entry?.[`${field}-data`];
  if (data !== undefined) return Buffer.from(data, 'base64').toString();
  const path = entry?.[field];
  return path === undefined ? undefined : readFile(resolve(base, path), 'utf8');
}

/** --authentication-token-webhook-config-file: a kubeconfig naming the service. */
export async function loadWebhookTarget(path: string): Promise<WebhookTarget> {
  const text = await readFile(path, 'utf8');
  const file = (yamlLibrary().parse(text) ?? {}) as KubeconfigFile;
  const cluster = file.clusters?.[0]?.cluster;
  const user = file.users?.[0]?.user;
  const server = cluster?.server;
  if (server === undefined || server === '') throw new Error(`no server found in ${JSON.stringify(path)}`);
  const base = dirname(path);
  const [caPem, certPem, keyPem] = await Promise.all([
    material(cluster, 'certificate-authority', base),
    material(user, 'client-certificate', base),
    material(user, 'client-key', base),
  ]);
  return {
    server,
    ...(caPem === undefined ? {} : { caPem }),
    ...(certPem === undefined ? {} : { certPem }),
    ...(keyPem === undefined ? {} : { keyPem }),
    ...(user?.token === undefined ? {} : { token: user.token }),
  };
}

interface TokenReviewStatus {
  authenticated?: boolean;
  audiences?: string[];
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  error?: string;
}

/** --authentication-token-webhook-version: the TokenReview versions kube can send. */
export const tokenReviewVersions = ['v1', 'v1beta1'] as const;
export type TokenReviewVersion = (typeof tokenReviewVersions)[number];

/** kube's error for another --authentication-token-webhook-version; undefined for a known one. */
export function tokenReviewVersionError(version: string): string | undefined {
  return (tokenReviewVersions as readonly string[]).includes(version)
    ? undefined
    : `unsupported authentication webhook version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`;
}

export interface WebhookTokenOptions {
  readonly target: WebhookTarget;
  readonly cacheTTLMs: number;
  /** The TokenReview version sent and expected back (kube's default: v1beta1, of the same shape). */
  readonly version?: TokenReviewVersion;
  /** The API server's audiences: what a review that names none in its answer was for. */
  readonly implicitAudiences?: readonly string[];
  /** Milliseconds; injected so tests move time. */
  readonly now?: () => number;
}

const maxCached = 4096;
const timeoutMs = 30_000;

export class WebhookTokenAuthenticator {
  readonly #opts: WebhookTokenOptions;
  /** sha256(token) → answer and when it goes stale; the token itself is not kept. */
  readonly #cache = new Map<string, { result: AuthenticationResult; expires: number }>();

  constructor(opts: WebhookTokenOptions) {
    this.#opts = opts;
  }

  /**
   * kube's webhook authenticator is audience aware: target audiences go in spec.audiences, and a
   * user is accepted only for those among the audiences the answer names (else the API server's).
   */
  readonly authenticate = async (
    token: string,
    signal: AbortSignal,
    audiences?: readonly string[],
  ): Promise<AuthenticationResult> => {
    const now = (this.#opts.now ?? Date.now)();
    const hash = createHash('sha256');
    // kube's token cache keys on the audiences too.
    if (audiences !== undefined) hash.update(JSON.stringify(audiences)).update('\0');
    const key = hash.update(token).digest('base64');
    const cached = this.#cache.get(key);
    if (cached !== undefined && cached.expires > now) return cached.result;
    let result: AuthenticationResult;
    try {
      const status = await this.#review(token, audiences, signal);
      result = toResult(status, audiences, this.#opts.implicitAudiences ?? []);
    } catch (err) {
      // Faults are not cached: the next request asks again.
      return { kind: 'invalid', reason: `Post "${this.#opts.target.server}": ${(err as Error).message}` };
    }
    if (this.#opts.cacheTTLMs > 0) {
      if (this.#cache.size >= maxCached) this.#cache.delete(this.#cache.keys().next().value ?? '');
      this.#cache.set(key, { result, expires: now + this.#opts.cacheTTLMs });
    }
    return result;
  };

  #review(
    token: string,
    audiences: readonly string[] | undefined,
    signal: AbortSignal,
  ): Promise<TokenReviewStatus> {
    const { target } = this.#opts;
    const body = JSON.stringify({
      apiVersion: `authentication.k8s.io/${this.#opts.version ?? 'v1'}`,
      kind: 'TokenReview',
      spec: { token, ...(audiences === undefined ? {} : { audiences }) },
    });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
    const secure = target.server.startsWith('https:');
    const send = secure ? httpsRequest : httpRequest;
    return new Promise((resolvePromise, reject) => {
      const req = send(
        target.server,
        {
          method: 'POST',
          headers,
          signal,
          timeout: timeoutMs,
          ...(secure
            ? {
                ...(target.caPem === undefined ? {} : { ca: target.caPem }),
                ...(target.certPem === undefined ? {} : { cert: target.certPem }),
                ...(target.keyPem === undefined ? {} : { key: target.keyPem }),
              }
            : {}),
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => {
            if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) {
              reject(new Error(`the server responded with the status code ${res.statusCode ?? 0}`));
              return;
            }
            try {
              const review = JSON.parse(text) as { status?: TokenReviewStatus };
              resolvePromise(review.status ?? {});
            } catch (err) {
              reject(err instanceof Error ? err : new Error(String(err)));
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
      req.on('error', reject);
      req.end(body);
    });
  }
}

function toResult(
  status: TokenReviewStatus,
  wanted: readonly string[] | undefined,
  implicit: readonly string[],
): AuthenticationResult {
  if (status.authenticated !== true) {
    return status.error === undefined || status.error === ''
      ? { kind: 'none' }
      : { kind: 'invalid', reason: status.error };
  }
  let audiences: string[] | undefined;
  if (wanted !== undefined) {
    const got = (status.audiences ?? []).length > 0 ? (status.audiences ?? []) : implicit;
    audiences = intersectAudiences(wanted, got);
    if (audiences.length === 0) return { kind: 'none' };
  }
  const u = status.user ?? {};
  const user: UserInfo = {
    name: u.username ?? '',
    groups: u.groups ?? [],
    ...(u.uid === undefined ? {} : { uid: u.uid }),
    ...(u.extra === undefined ? {} : { extra: u.extra }),
  };
  return { kind: 'user', user, ...(audiences === undefined ? {} : { audiences }) };
}
