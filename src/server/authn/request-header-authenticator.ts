// Request-header authentication for front proxies and the aggregation layer
// (k8s.io/apiserver/pkg/authentication/request/headerrequest): a client certificate from
// --requestheader-client-ca-file (with a CN in --requestheader-allowed-names when that is set)
// vouches for the user named in the first non-empty username header, the groups in the group
// headers and the extras under the extra prefixes.
import type { X509Certificate } from 'node:crypto';
import type { UserInfo } from '../../registry/rest/context.js';
import { appendToMember } from '../../machinery/json/set-member.js';
import type { HttpRequest } from '../http/types.js';
import { removeHeaders } from '../http/remove-headers.js';
import type { AuthenticationResult } from './token-auth.js';
import { asList, connectionOf, tlsSocketOf, verifyPeer, type PeerVerdict } from './x509-authenticator.js';
import { parseCABundle } from './x509-chain.js';

export interface RequestHeaderConfig {
  readonly caPem: string;
  readonly allowedNames: readonly string[];
  readonly usernameHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
}

const none = { kind: 'none' } as const;

/** Every value of each header, by lower-case name (Node joins repeated headers in `headers`). */
function headerValues(req: HttpRequest): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    const values = out.get(name) ?? [];
    values.push(raw[i + 1] ?? '');
    out.set(name, values);
  }
  return out;
}

const unescape = (key: string): string => {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
};

export class RequestHeaderAuthenticator {
  readonly #config: RequestHeaderConfig;
  readonly #cas: readonly X509Certificate[];
  readonly #usernameHeaders: readonly string[];
  readonly #groupHeaders: readonly string[];
  readonly #extraPrefixes: readonly string[];
  readonly #byConnection = new WeakMap<object, PeerVerdict>();

  constructor(config: RequestHeaderConfig) {
    this.#config = config;
    this.#cas = parseCABundle(config.caPem);
    const lower = (names: readonly string[]): string[] =>
      names.map((n) => n.trim().toLowerCase()).filter((n) => n !== '');
    this.#usernameHeaders = lower(config.usernameHeaders);
    this.#groupHeaders = lower(config.groupHeaders);
    this.#extraPrefixes = lower(config.extraHeaderPrefixes);
  }

  #verdict(req: HttpRequest): PeerVerdict {
    const connection = connectionOf(req);
    if (connection === undefined) return none;
    let verdict: PeerVerdict | undefined = this.#byConnection.get(connection);
    if (verdict === undefined) {
      const socket = tlsSocketOf(req);
      verdict = socket === undefined ? none : verifyPeer(socket, this.#cas);
      if (verdict.kind === 'verified' && this.#config.allowedNames.length > 0) {
        const cn = asList(verdict.cert.subject.CN)[0] ?? '';
        if (!this.#config.allowedNames.includes(cn))
          verdict = { kind: 'invalid', reason: `x509: subject with cn=${cn} is not in the allowed list` };
      }
      this.#byConnection.set(connection, verdict);
    }
    return verdict;
  }

  authenticate(req: HttpRequest): AuthenticationResult {
    if (this.#usernameHeaders.length === 0) return none;
    const verdict = this.#verdict(req);
    if (verdict.kind !== 'verified') return verdict;
    const headers = headerValues(req);
    const name = this.#usernameHeaders
      .map((h) => headers.get(h)?.find((v) => v !== ''))
      .find((v) => v !== undefined);
    if (name === undefined) return none;
    const groups = this.#groupHeaders.flatMap((h) => headers.get(h) ?? []);
    const extra: Record<string, string[]> = {};
    for (const [header, values] of headers) {
      const prefix = this.#extraPrefixes.find((p) => header.startsWith(p));
      if (prefix === undefined) continue;
      appendToMember(extra, unescape(header.slice(prefix.length)), values);
    }
    const user: UserInfo = { name, groups, ...(Object.keys(extra).length === 0 ? {} : { extra }) };
    // ClearAuthenticationHeaders: what the proxy asserted is not passed on.
    removeHeaders(
      req,
      (h) =>
        this.#usernameHeaders.includes(h) ||
        this.#groupHeaders.includes(h) ||
        this.#extraPrefixes.some((p) => h.startsWith(p)),
    );
    return { kind: 'user', user };
  }
}
