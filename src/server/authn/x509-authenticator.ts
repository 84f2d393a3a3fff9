// Client certificate authentication (k8s.io/apiserver/pkg/authentication/request/x509): the TLS
// handshake verifies the peer's chain against --client-ca-file (requested, not required); the user
// is the certificate's CN and its groups the O's (CommonNameUserConversion). A certificate that does
// not verify refuses the request whatever else it carries.
import type { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, PeerCertificate, TLSSocket } from 'node:tls';
import type { UserInfo } from '../../registry/rest/context.js';
import type { HttpRequest } from '../http/types.js';
import type { AuthenticationResult } from './token-auth.js';
import { chainsTo, parseCABundle } from './x509-chain.js';

const none: AuthenticationResult = { kind: 'none' };

/** The connection a request came on: the TLS socket for HTTP/1.1, the session for HTTP/2. */
export function connectionOf(req: HttpRequest): object | undefined {
  if ('stream' in req) return req.stream.session ?? undefined;
  return req.socket;
}

export function tlsSocketOf(req: HttpRequest): TLSSocket | undefined {
  const socket = req.socket as Partial<TLSSocket>;
  return typeof socket.getPeerCertificate === 'function' ? (socket as TLSSocket) : undefined;
}

export const asList = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

/** x509's certificateIdentifier: what a log line names a certificate by. */
export function certificateIdentifier(cert: PeerCertificate): string {
  const subject = Object.entries(cert.subject)
    .map(([k, v]) => `${k}=${asList(v as string | string[]).join('+')}`)
    .join(',');
  return `"${subject}" serial=${cert.serialNumber}`;
}

export type PeerVerdict =
  | { readonly kind: 'none' }
  | { readonly kind: 'verified'; readonly cert: PeerCertificate }
  | { readonly kind: 'invalid'; readonly reason: string };

/** Whether the peer's certificate verified at the handshake and chains to `cas`. */
export function verifyPeer(socket: TLSSocket, cas: readonly X509Certificate[]): PeerVerdict {
  const cert: DetailedPeerCertificate = socket.getPeerCertificate(true);
  // No certificate: an empty object.
  if (!('raw' in cert)) return { kind: 'none' };
  const err = socket.authorized
    ? chainsTo(cert, cas)
      ? undefined
      : 'certificate signed by unknown authority'
    : String(socket.authorizationError);
  if (err !== undefined) {
    return {
      kind: 'invalid',
      reason: `verifying certificate ${certificateIdentifier(cert)} failed: x509: ${err}`,
    };
  }
  return { kind: 'verified', cert };
}

/** What a verified certificate says, or why it does not verify. */
function judge(socket: TLSSocket, cas: readonly X509Certificate[]): AuthenticationResult {
  const verdict = verifyPeer(socket, cas);
  if (verdict.kind !== 'verified') return verdict;
  const cert = verdict.cert;
  const commonName = asList(cert.subject.CN)[0] ?? '';
  if (commonName === '') return { kind: 'invalid', reason: 'x509: certificate has no common name' };
  const user: UserInfo = { name: commonName, groups: asList(cert.subject.O) };
  return { kind: 'user', user };
}

/**
 * Judges each connection's certificate once: every request on a connection (HTTP/2 streams,
 * HTTP/1.1 keep-alive) carries the same one.
 */
export class X509Authenticator {
  readonly #byConnection = new WeakMap<object, AuthenticationResult>();
  readonly #cas: readonly X509Certificate[];

  /** `caPem`: the --client-ca-file bundle. */
  constructor(caPem: string) {
    this.#cas = parseCABundle(caPem);
  }

  authenticate(req: HttpRequest): AuthenticationResult {
    const connection = connectionOf(req);
    if (connection === undefined) return none;
    let result = this.#byConnection.get(connection);
    if (result === undefined) {
      const socket = tlsSocketOf(req);
      result = socket === undefined ? none : judge(socket, this.#cas);
      this.#byConnection.set(connection, result);
    }
    return result;
  }
}
