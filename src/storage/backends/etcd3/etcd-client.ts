// A thin etcd v3 client: typed unary calls with deadlines and the raw watch stream over one gRPC
// channel (grpc-channel.ts). Faults come back as BackendUnavailableError or EtcdRpcError.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { BackendUnavailableError } from '../../kv/backend.js';
import { GrpcChannel, type DuplexCall, type StreamHandlers } from './grpc-channel.js';
import type { MemberEndpoint } from './grpc-connection.js';
import { toBackendError } from './grpc-errors.js';
import { rpcMethods, watchMethod, type RpcMethods, type UnaryName } from './rpc-codec.js';
import type { WatchRequest, WatchResponse } from './rpc-types.js';

export interface EtcdTlsOptions {
  /** PEM CA bundle that signs the etcd servers' certificates (--etcd-cafile). */
  readonly caFile?: string;
  /** Without caFile: PEM CAs trusted along with Node's default roots (as NODE_EXTRA_CA_CERTS does). */
  readonly extraCaFile?: string;
  /** PEM client certificate and key (--etcd-certfile, --etcd-keyfile). */
  readonly certFile?: string;
  readonly keyFile?: string;
}

export interface EtcdClientOptions {
  /** Client URLs as kube's --etcd-servers takes them: http(s)://host:port. */
  readonly endpoints: readonly string[];
  readonly tls?: EtcdTlsOptions;
  /** Deadline of one unary call (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** How long to wait for a connection to a member (default 5 s; kube's dial timeout is 20 s). */
  readonly dialTimeoutMs?: number;
  /** Largest response message accepted (default 2 GiB: no 4 MB ceiling as in grpc-js). */
  readonly maxReceiveBytes?: number;
  /** HTTP/2 keepalive ping interval and timeout (default 30 s and 10 s, as kube's client). */
  readonly keepaliveMs?: number;
  readonly keepaliveTimeoutMs?: number;
}

type Req<N extends UnaryName> = Parameters<RpcMethods[N]['serialize']>[0];
type Res<N extends UnaryName> = ReturnType<RpcMethods[N]['deserialize']>;

function parseEndpoint(raw: string): MemberEndpoint {
  const url = new URL(raw.includes('://') ? raw : `http://${raw}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`etcd3: endpoint ${raw}: only http:// and https:// are supported`);
  }
  const port = url.port === '' ? '2379' : url.port;
  return { url: `${url.protocol}//${url.hostname}:${port}`, secure: url.protocol === 'https:' };
}

function readTls(tls: EtcdTlsOptions | undefined): { ca?: Buffer; cert?: Buffer; key?: Buffer } {
  const out: { ca?: Buffer; cert?: Buffer; key?: Buffer } = {};
  if (tls?.caFile !== undefined) out.ca = readFileSync(tls.caFile);
  else if (tls?.extraCaFile !== undefined)
    out.ca = Buffer.from(`${rootCertificates.join('\n')}\n${readFileSync(tls.extraCaFile, 'utf8')}`);
  if (tls?.certFile !== undefined) out.cert = readFileSync(tls.certFile);
  if (tls?.keyFile !== undefined) out.key = readFileSync(tls.keyFile);
  return out;
}

export class EtcdClient {
  readonly #channel: GrpcChannel;
  readonly #timeoutMs: number;
  #closed = false;

  constructor(opts: EtcdClientOptions) {
    const endpoints = opts.endpoints.map(parseEndpoint);
    if (new Set(endpoints.map((e) => e.secure)).size > 1) {
      throw new Error('etcd3: endpoints must not mix http:// and https://');
    }
    this.#timeoutMs = opts.requestTimeoutMs ?? 30_000;
    this.#channel = new GrpcChannel({
      endpoints,
      tls: readTls(opts.tls),
      dialTimeoutMs: opts.dialTimeoutMs ?? 5_000,
      maxReceiveBytes: opts.maxReceiveBytes ?? 2 ** 31 - 1,
      ...(opts.keepaliveMs === undefined ? {} : { keepaliveMs: opts.keepaliveMs }),
      ...(opts.keepaliveTimeoutMs === undefined ? {} : { keepaliveTimeoutMs: opts.keepaliveTimeoutMs }),
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** One unary RPC; rejects with BackendUnavailableError or EtcdRpcError (grpc-errors.ts). */
  async call<N extends UnaryName>(name: N, req: Req<N>, opts?: { timeoutMs?: number }): Promise<Res<N>> {
    if (this.#closed) throw new BackendUnavailableError('etcd3: client is closed');
    const m = rpcMethods[name] as unknown as Parameters<GrpcChannel['unary']>[0];
    try {
      return (await this.#channel.unary(m, req, opts?.timeoutMs ?? this.#timeoutMs)) as Res<N>;
    } catch (err) {
      throw toBackendError(err, m.path);
    }
  }

  /** Opens a Watch stream (one per backend; its watchers share it, as clientv3 does). */
  openWatchStream(handlers: StreamHandlers<WatchResponse>): DuplexCall<WatchRequest> {
    return this.#channel.stream(watchMethod, handlers);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#channel.close();
  }
}
