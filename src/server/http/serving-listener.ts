// One listening socket: HTTPS through node:http2 with allowHTTP1 (client-go negotiates h2 by ALPN,
// curl and older clients use HTTP/1.1), or plain HTTP/1.1. Tracks connections so shutdown can
// close idle ones gracefully and cut the rest.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createSecureServer, type Http2SecureServer, type Http2Session } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import type { HttpRequest, HttpResponse } from './types.js';
import { upgradeListener } from './upgrade.js';

export interface TlsMaterial {
  readonly certPem: string;
  readonly keyPem: string;
  /** --client-ca-file's PEM: client certificates are then requested (not required) and verified. */
  readonly clientCAPem?: string;
}

export interface ListenerConfig {
  readonly bindAddress: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Absent: plain HTTP (allowed on loopback addresses only; the config checks). */
  readonly tls?: TlsMaterial;
}

export type RequestListener = (req: HttpRequest, res: HttpResponse) => void;

function hostForUrl(bindAddress: string): string {
  if (bindAddress === '0.0.0.0' || bindAddress === '') return '127.0.0.1';
  if (bindAddress === '::') return '[::1]';
  return bindAddress.includes(':') ? `[${bindAddress}]` : bindAddress;
}

export class ServingListener {
  readonly #server: HttpServer | Http2SecureServer;
  readonly #config: ListenerConfig;
  readonly #sockets = new Set<Socket>();
  readonly #sessions = new Set<Http2Session>();
  #closed: Promise<void> | undefined;
  #port = 0;

  private constructor(config: ListenerConfig, onRequest: RequestListener) {
    this.#config = config;
    this.#server =
      config.tls === undefined
        ? createHttpServer({ keepAliveTimeout: 30_000 }, onRequest)
        : createSecureServer(
            // Without --client-ca-file no client certificates are asked for and the server trusts
            // no CA: naming none (`ca` absent) would make Node build its root store, ~40 ms of a
            // start, for nothing. With it, a certificate that does not verify still completes the
            // handshake: the authentication filter refuses the request (kube's 401), not TLS.
            {
              cert: config.tls.certPem,
              key: config.tls.keyPem,
              ca: config.tls.clientCAPem === undefined ? [] : [config.tls.clientCAPem],
              requestCert: config.tls.clientCAPem !== undefined,
              rejectUnauthorized: false,
              allowHTTP1: true,
            },
            onRequest,
          );
    const connectionEvent = config.tls === undefined ? 'connection' : 'secureConnection';
    this.#server.on(connectionEvent, (socket: Socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    // HTTP/1.1 upgrade requests (HTTP/2 has none here) reach the same listener.
    this.#server.on('upgrade', upgradeListener(onRequest));
    this.#server.on('session', (session: Http2Session) => {
      this.#sessions.add(session);
      session.once('close', () => this.#sessions.delete(session));
    });
  }

  static async listen(config: ListenerConfig, onRequest: RequestListener): Promise<ServingListener> {
    const listener = new ServingListener(config, onRequest);
    const server = listener.#server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.bindAddress, () => {
        server.off('error', reject);
        resolve();
      });
    });
    listener.#port = (server.address() as AddressInfo).port;
    return listener;
  }

  get port(): number {
    return this.#port;
  }

  get secure(): boolean {
    return this.#config.tls !== undefined;
  }

  get url(): string {
    return `${this.secure ? 'https' : 'http'}://${hostForUrl(this.#config.bindAddress)}:${this.port}`;
  }

  /** Stops accepting connections and asks idle ones to go (HTTP/2 GOAWAY, idle HTTP/1.1 closed). */
  stopAccepting(): void {
    this.#closed ??= new Promise((resolve) => {
      this.#server.close(() => {
        resolve();
      });
    });
    for (const session of this.#sessions) session.close();
    if ('closeIdleConnections' in this.#server) this.#server.closeIdleConnections();
  }

  /** Cuts every connection still open and waits for the server to be closed. */
  async close(): Promise<void> {
    this.stopAccepting();
    for (const session of this.#sessions) session.destroy();
    for (const socket of this.#sockets) socket.destroy();
    await this.#closed;
  }
}
