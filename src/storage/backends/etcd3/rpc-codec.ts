// Method paths and protobuf (de)serializers for the etcd calls Etcd3Backend makes, built once from
// rpc-proto.ts with protobufjs. Decoded messages are used as they are (no toObject copy): this sits
// on every request, and the client, not etcd, is the CPU bottleneck (FACTS.md).
import protobuf from 'protobufjs';
import { etcdServerProto, mvccProto } from './rpc-proto.js';
import type * as rpc from './rpc-types.js';

const root = new protobuf.Root();
protobuf.parse(mvccProto, root, { keepCase: true });
protobuf.parse(etcdServerProto, root, { keepCase: true });
root.resolveAll();

export interface RpcMethod<Req, Res> {
  readonly path: string;
  readonly serialize: (req: Req) => Buffer;
  readonly deserialize: (buf: Buffer) => Res;
}

function codec<Req, Res>(opts: {
  service: string;
  method: string;
  req: string;
  res: string;
}): RpcMethod<Req, Res> {
  const reqType = root.lookupType(`etcdserverpb.${opts.req}`);
  const resType = root.lookupType(`etcdserverpb.${opts.res}`);
  return {
    path: `/etcdserverpb.${opts.service}/${opts.method}`,
    serialize: (req) => {
      const bytes = reqType.encode(req as Record<string, unknown>).finish();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    deserialize: (buf) => resType.decode(buf) as unknown as Res,
  };
}

export const rpcMethods = {
  range: codec<rpc.RangeRequest, rpc.RangeResponse>({
    service: 'KV',
    method: 'Range',
    req: 'RangeRequest',
    res: 'RangeResponse',
  }),
  put: codec<rpc.PutRequest, rpc.PutResponse>({
    service: 'KV',
    method: 'Put',
    req: 'PutRequest',
    res: 'PutResponse',
  }),
  deleteRange: codec<rpc.DeleteRangeRequest, rpc.DeleteRangeResponse>({
    service: 'KV',
    method: 'DeleteRange',
    req: 'DeleteRangeRequest',
    res: 'DeleteRangeResponse',
  }),
  txn: codec<rpc.TxnRequest, rpc.TxnResponse>({
    service: 'KV',
    method: 'Txn',
    req: 'TxnRequest',
    res: 'TxnResponse',
  }),
  compact: codec<rpc.CompactionRequest, rpc.HeaderOnlyResponse>({
    service: 'KV',
    method: 'Compact',
    req: 'CompactionRequest',
    res: 'CompactionResponse',
  }),
  leaseGrant: codec<rpc.LeaseGrantRequest, rpc.LeaseGrantResponse>({
    service: 'Lease',
    method: 'LeaseGrant',
    req: 'LeaseGrantRequest',
    res: 'LeaseGrantResponse',
  }),
  leaseRevoke: codec<rpc.LeaseRevokeRequest, rpc.HeaderOnlyResponse>({
    service: 'Lease',
    method: 'LeaseRevoke',
    req: 'LeaseRevokeRequest',
    res: 'LeaseRevokeResponse',
  }),
  // A bidirectional stream in etcd's API: one request, then the half-close, answers once and ends,
  // so a renewal is a unary call here.
  leaseKeepAlive: codec<rpc.LeaseKeepAliveRequest, rpc.LeaseKeepAliveResponse>({
    service: 'Lease',
    method: 'LeaseKeepAlive',
    req: 'LeaseKeepAliveRequest',
    res: 'LeaseKeepAliveResponse',
  }),
  status: codec<rpc.StatusRequest, rpc.StatusResponse>({
    service: 'Maintenance',
    method: 'Status',
    req: 'StatusRequest',
    res: 'StatusResponse',
  }),
} as const;

export type RpcMethods = typeof rpcMethods;
export type UnaryName = keyof RpcMethods;

export const watchMethod: RpcMethod<rpc.WatchRequest, rpc.WatchResponse> = codec({
  service: 'Watch',
  method: 'Watch',
  req: 'WatchRequest',
  res: 'WatchResponse',
});
