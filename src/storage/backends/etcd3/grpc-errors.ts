// Maps gRPC failures from etcd onto the kv port's fault classes. etcd reports mvcc errors as
// OutOfRange with fixed texts (etcdserver/api/v3rpc/rpctypes); anything that means "could not
// reach a working etcd" becomes BackendUnavailableError, which the store maps to Unreachable.
import { BackendNoSpaceError, BackendUnavailableError } from '../../kv/backend.js';
import { grpcStatus, GrpcStatusError } from './grpc-frames.js';

/** An etcd error that is neither unavailability nor a revision error (bad request, auth, …). */
export class EtcdRpcError extends Error {
  readonly code: number;
  readonly details: string;
  constructor(err: GrpcStatusError, path: string) {
    super(`etcd3: ${path}: ${err.details}`, { cause: err });
    this.name = 'EtcdRpcError';
    this.code = err.code;
    this.details = err.details;
  }

  get isCompacted(): boolean {
    return this.details.includes('required revision has been compacted');
  }

  get isFutureRevision(): boolean {
    return this.details.includes('required revision is a future revision');
  }
}

/** gRPC codes that mean the cluster could not serve the request right now. */
const unavailableCodes: ReadonlySet<number> = new Set([
  grpcStatus.UNAVAILABLE,
  grpcStatus.DEADLINE_EXCEEDED,
  grpcStatus.CANCELLED,
  grpcStatus.ABORTED,
  grpcStatus.RESOURCE_EXHAUSTED,
]);

export function toBackendError(err: unknown, path: string): Error {
  if (!(err instanceof GrpcStatusError)) return err instanceof Error ? err : new Error(String(err));
  // NOSPACE (the quota alarm): kube passes etcd's text through to the client.
  if (err.code === grpcStatus.RESOURCE_EXHAUSTED && err.details.includes('database space exceeded'))
    return new BackendNoSpaceError(err.details, { cause: err });
  if (unavailableCodes.has(err.code)) {
    return new BackendUnavailableError(`etcd3: ${path}: ${err.details}`, { cause: err });
  }
  return new EtcdRpcError(err, path);
}
