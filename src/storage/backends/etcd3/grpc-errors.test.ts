// etcd's gRPC failures as the kv port's fault classes.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { BackendNoSpaceError, BackendUnavailableError } from '../../kv/backend.js';
import { EtcdRpcError, toBackendError } from './grpc-errors.js';
import { grpcStatus, GrpcStatusError } from './grpc-frames.js';

it('NOSPACE keeps etcd text for the client; other exhaustion and unavailability are unreachable', () => {
  const full = toBackendError(
    new GrpcStatusError(grpcStatus.RESOURCE_EXHAUSTED, 'etcdserver: mvcc: database space exceeded'),
    '/etcdserverpb.KV/Txn',
  );
  assert.ok(full instanceof BackendNoSpaceError);
  assert.equal(full.message, 'etcdserver: mvcc: database space exceeded');
  const busy = toBackendError(
    new GrpcStatusError(grpcStatus.RESOURCE_EXHAUSTED, 'etcdserver: too many requests'),
    '/etcdserverpb.KV/Txn',
  );
  assert.ok(busy instanceof BackendUnavailableError);
  assert.ok(
    toBackendError(new GrpcStatusError(grpcStatus.UNAVAILABLE, 'no leader'), '/x') instanceof
      BackendUnavailableError,
  );
  assert.ok(
    toBackendError(new GrpcStatusError(grpcStatus.INVALID_ARGUMENT, 'bad'), '/x') instanceof EtcdRpcError,
  );
});
