// A minimal gRPC client channel on node:http2: unary calls and bidirectional streams to a list of
// etcd members, one session at a time, moving to the next member when a session fails. It replaces
// @grpc/grpc-js, which cost ~2x the client CPU per request (see README's measurement).
import http2 from 'node:http2';
import { Connection, type MemberEndpoint } from './grpc-connection.js';
import {
  frameMessage,
  grpcStatus,
  GrpcStatusError,
  MessageReader,
  statusFromHeaders,
} from './grpc-frames.js';
import type { RpcMethod } from './rpc-codec.js';

export interface GrpcChannelOptions {
  readonly endpoints: readonly MemberEndpoint[];
  readonly tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer };
  readonly dialTimeoutMs: number;
  readonly maxReceiveBytes: number;
  readonly keepaliveMs?: number;
  readonly keepaliveTimeoutMs?: number;
}

export interface StreamHandlers<Res> {
  onMessage(res: Res): void;
  /** Called once: null after a clean end, else the status or transport error. */
  onEnd(err: GrpcStatusError | null): void;
}

export interface DuplexCall<Req> {
  write(req: Req): void;
  /** Cancels the call (RST_STREAM CANCEL); onEnd is not called for a cancel. */
  cancel(): void;
}

interface CallCallbacks {
  onHeaders?: () => void;
  onMessage(msg: Buffer): void;
  onEnd(err: GrpcStatusError | null, sent: boolean): void;
}

function transportError(err: unknown, url: string): GrpcStatusError {
  const text = err instanceof Error ? err.message : String(err);
  return new GrpcStatusError(grpcStatus.UNAVAILABLE, `${url}: ${text}`, { cause: err });
}

export class GrpcChannel {
  readonly #opts: GrpcChannelOptions;
  #next = 0;
  #conn: Connection | null = null;
  #closed = false;

  constructor(opts: GrpcChannelOptions) {
    if (opts.endpoints.length === 0) throw new Error('etcd3: no endpoints given');
    this.#opts = opts;
  }

  /** A unary call; a call that never reached a member is retried on the next one until the deadline. */
  unary<Req, Res>(m: RpcMethod<Req, Res>, req: Req, timeoutMs: number): Promise<Res> {
    const deadline = Date.now() + timeoutMs;
    const body = frameMessage(m.serialize(req));
    return new Promise((resolve, reject) => {
      const attempt = (triesLeft: number): void => {
        let reply: Buffer | null = null;
        const call = this.#start(
          m.path,
          { deadline, body },
          {
            onMessage: (msg) => (reply = msg),
            onEnd: (err, sent) => {
              if (err === null && reply !== null) resolve(m.deserialize(reply));
              else if (err === null)
                reject(new GrpcStatusError(grpcStatus.INTERNAL, `${m.path}: no response message`));
              else if (!sent && triesLeft > 1 && Date.now() < deadline && !this.#closed)
                attempt(triesLeft - 1);
              else reject(err);
            },
          },
        );
        if (call === null) reject(new GrpcStatusError(grpcStatus.UNAVAILABLE, 'etcd3: client is closed'));
      };
      attempt(this.#opts.endpoints.length);
    });
  }

  /** Opens a bidirectional stream; failures (also to connect) arrive through handlers.onEnd. */
  stream<Req, Res>(m: RpcMethod<Req, Res>, handlers: StreamHandlers<Res>): DuplexCall<Req> {
    let ended = false;
    const stream = this.#start(
      m.path,
      { deadline: null, body: null },
      {
        onMessage: (msg) => {
          if (!ended) handlers.onMessage(m.deserialize(msg));
        },
        onEnd: (err) => {
          if (ended) return;
          ended = true;
          handlers.onEnd(err);
        },
      },
    );
    if (stream === null) {
      queueMicrotask(() => {
        handlers.onEnd(new GrpcStatusError(grpcStatus.UNAVAILABLE, 'etcd3: client is closed'));
      });
    }
    return {
      write: (req) => {
        if (stream !== null && !ended && stream.writable) stream.write(frameMessage(m.serialize(req)));
      },
      cancel: () => {
        ended = true;
        if (stream !== null && !stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
      },
    };
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#conn?.close();
    this.#conn = null;
  }

  #connection(): Connection {
    if (this.#conn?.usable === true) return this.#conn;
    const eps = this.#opts.endpoints;
    const endpoint = eps[this.#next % eps.length] ?? eps[0];
    if (endpoint === undefined) throw new Error('etcd3: no endpoints given');
    const tls = this.#opts.tls;
    const conn = new Connection(endpoint, {
      tls,
      dialTimeoutMs: this.#opts.dialTimeoutMs,
      keepaliveMs: this.#opts.keepaliveMs ?? 30_000,
      keepaliveTimeoutMs: this.#opts.keepaliveTimeoutMs ?? 10_000,
      onGone: (gone) => {
        if (this.#conn !== gone) return;
        this.#conn = null;
        // Whatever broke (refused, timed out, crashed, GOAWAY), try the next member next time.
        this.#next++;
      },
    });
    this.#conn = conn;
    return conn;
  }

  /** Starts one HTTP/2 stream for a call; null when the channel is closed. */
  #start(
    path: string,
    init: { deadline: number | null; body: Buffer | null },
    cb: CallCallbacks,
  ): http2.ClientHttp2Stream | null {
    if (this.#closed) return null;
    const conn = this.#connection();
    const headers: http2.OutgoingHttpHeaders = {
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
    };
    if (init.deadline !== null) headers['grpc-timeout'] = `${Math.max(1, init.deadline - Date.now())}m`;
    const stream = conn.session.request(headers, { endStream: false });
    this.#wire({ stream, conn, deadline: init.deadline }, cb);
    if (init.body !== null) stream.end(init.body);
    return stream;
  }

  #wire(
    call: { stream: http2.ClientHttp2Stream; conn: Connection; deadline: number | null },
    cb: CallCallbacks,
  ): void {
    const { stream, conn } = call;
    const reader = new MessageReader(this.#opts.maxReceiveBytes);
    let status: GrpcStatusError | 'ok' | null = null;
    let failure: GrpcStatusError | null = null;
    let sent = false;
    let timer: NodeJS.Timeout | undefined;
    if (call.deadline !== null) {
      timer = setTimeout(
        () => {
          failure = new GrpcStatusError(
            grpcStatus.DEADLINE_EXCEEDED,
            `deadline exceeded talking to ${conn.endpoint.url}`,
          );
          stream.close(http2.constants.NGHTTP2_CANCEL);
        },
        Math.max(0, call.deadline - Date.now()),
      );
    }
    // 'ready' means the stream got an id on a connected session: the request may have reached etcd.
    stream.once('ready', () => (sent = true));
    stream.once('response', (headers) => {
      sent = true;
      const code = headers[':status'];
      if (code !== 200)
        failure ??= new GrpcStatusError(
          grpcStatus.UNAVAILABLE,
          `HTTP status ${String(code)} from ${conn.endpoint.url}`,
        );
      status = statusFromHeaders(headers);
    });
    stream.on('data', (chunk: Buffer) => {
      try {
        for (const msg of reader.push(chunk)) cb.onMessage(msg);
      } catch (err) {
        failure ??= err instanceof GrpcStatusError ? err : transportError(err, conn.endpoint.url);
        stream.close(http2.constants.NGHTTP2_CANCEL);
      }
    });
    stream.once('trailers', (trailers: http2.IncomingHttpHeaders) => (status = statusFromHeaders(trailers)));
    stream.on('error', (err) => (failure ??= transportError(err, conn.endpoint.url)));
    stream.once('close', () => {
      clearTimeout(timer);
      // RST_STREAM(REFUSED_STREAM) promises etcd did not act on the request: it may go elsewhere.
      if (stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM) sent = false;
      if (failure === null && status === null)
        failure = transportError(`stream closed (code ${stream.rstCode})`, conn.endpoint.url);
      const err = failure ?? (status === 'ok' ? null : status);
      cb.onEnd(err, sent);
    });
  }
}
