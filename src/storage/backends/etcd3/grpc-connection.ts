// One HTTP/2 session to one etcd member, with a dial timeout and keepalive pings (kube's etcd
// client pings every 30 s and gives up after 10 s without an answer).
import http2 from 'node:http2';

export interface MemberEndpoint {
  /** The member's client URL, http(s)://host:port. */
  readonly url: string;
  readonly secure: boolean;
}

export interface ConnectionOptions {
  readonly tls: { ca?: Buffer; cert?: Buffer; key?: Buffer } | undefined;
  readonly dialTimeoutMs: number;
  readonly keepaliveMs: number;
  readonly keepaliveTimeoutMs: number;
  /** Called once when the session is gone; `failedToConnect` when it never connected. */
  readonly onGone: (conn: Connection, failedToConnect: boolean) => void;
}

/** Receive window per stream and per session: large lists arrive without stalling on WINDOW_UPDATEs. */
const windowBytes = 16 * 1024 * 1024;

export class Connection {
  readonly endpoint: MemberEndpoint;
  readonly session: http2.ClientHttp2Session;
  #connected = false;
  #gone = false;
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #opts: ConnectionOptions;

  constructor(endpoint: MemberEndpoint, opts: ConnectionOptions) {
    this.endpoint = endpoint;
    this.#opts = opts;
    const tls = opts.tls ?? {};
    this.session = http2.connect(endpoint.url, {
      ...(endpoint.secure ? { ca: tls.ca, cert: tls.cert, key: tls.key, ALPNProtocols: ['h2'] } : {}),
      settings: { initialWindowSize: windowBytes, enablePush: false },
      maxSessionMemory: 64,
    });
    this.session.once('connect', () => {
      // 'connect' comes a tick after the socket's: a session closed or timed out in between is gone
      // (setLocalWindowSize would throw ERR_HTTP2_INVALID_SESSION out of the event loop).
      if (this.session.destroyed) return;
      this.#connected = true;
      this.session.setLocalWindowSize(windowBytes);
      this.#startKeepalive();
    });
    this.session.on('error', () => {
      this.#markGone();
    });
    this.session.once('close', () => {
      this.#markGone();
    });
    this.session.once('goaway', () => {
      this.#markGone();
    });
    const dial = setTimeout(() => {
      if (!this.#connected) this.session.destroy(new Error(`dial ${endpoint.url} timed out`));
    }, opts.dialTimeoutMs);
    dial.unref();
    this.#timers.push(dial);
  }

  get connected(): boolean {
    return this.#connected;
  }

  /** False once the session failed, closed or was told to go away: open no new streams on it. */
  get usable(): boolean {
    return !this.#gone && !this.session.destroyed && !this.session.closed;
  }

  close(): void {
    this.#markGone();
    this.session.close();
    // A session with streams left open would linger until they end; a closed client ends them.
    setImmediate(() => {
      if (!this.session.destroyed) this.session.destroy();
    }).unref();
  }

  #startKeepalive(): void {
    const { keepaliveMs, keepaliveTimeoutMs } = this.#opts;
    if (keepaliveMs <= 0) return;
    const tick = setInterval(() => {
      if (!this.usable) return;
      const deadline = setTimeout(() => {
        this.session.destroy(new Error(`keepalive ping to ${this.endpoint.url} timed out`));
      }, keepaliveTimeoutMs);
      deadline.unref();
      const sent = this.session.ping((err) => {
        clearTimeout(deadline);
        if (err !== null) this.session.destroy(err);
      });
      if (!sent) clearTimeout(deadline);
    }, keepaliveMs);
    tick.unref();
    this.#timers.push(tick);
  }

  #markGone(): void {
    if (this.#gone) return;
    this.#gone = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#opts.onGone(this, !this.#connected);
  }
}
