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

/** A connection's verdict, and when the certificate it presented expires (epoch ms). */
interface Judged {
  readonly result: AuthenticationResult;
  readonly notAfter: number | undefined;
}

/** Who hears of the presented certificates' remaining lifetimes, and the clock they are read on. */
export interface ExpirationObserver {
  /** apiserver_client_certificate_expiration_seconds: once per request presenting a certificate. */
  observe(remainingSeconds: number): void;
  now(): number;
}

/**
 * Judges each connection's certificate once: every request on a connection (HTTP/2 streams,
 * HTTP/1.1 keep-alive) carries the same one.
 */
export class X509Authenticator {
  readonly #byConnection = new WeakMap<object, Judged>();
  readonly #cas: readonly X509Certificate[];
  readonly #expiration: ExpirationObserver | undefined;

  /** `caPem`: the --client-ca-file bundle. */
  constructor(caPem: string, expiration?: ExpirationObserver) {
    this.#cas = parseCABundle(caPem);
    this.#expiration = expiration;
  }

  authenticate(req: HttpRequest): AuthenticationResult {
    const connection = connectionOf(req);
    if (connection === undefined) return none;
    let judged = this.#byConnection.get(connection);
    if (judged === undefined) {
      const socket = tlsSocketOf(req);
      judged = socket === undefined ? { result: none, notAfter: undefined } : this.#judge(socket);
      this.#byConnection.set(connection, judged);
    }
    // As kube, every request that presents a certificate, verified or not.
    if (judged.notAfter !== undefined && this.#expiration !== undefined)
      this.#expiration.observe((judged.notAfter - this.#expiration.now()) / 1000);
    return judged.result;
  }

  #judge(socket: TLSSocket): Judged {
    const cert = socket.getPeerCertificate();
    const notAfter = 'raw' in cert ? Date.parse(cert.valid_to) : Number.NaN;
    return { result: judge(socket, this.#cas), notAfter: Number.isNaN(notAfter) ? undefined : notAfter };
  }
}
