// TypeScript shapes of the etcd messages in rpc-proto.ts. Requests are the plain objects we encode;
// responses are what protobufjs decodes: int64 fields arrive as Long (or number when long.js is
// absent), missing scalars read their proto3 defaults, missing sub-messages are null/undefined.

/** An int64 as protobufjs decodes it. */
export interface LongLike {
  toNumber(): number;
  toString(): string;
}
export type Int64 = LongLike | number;

/** Revisions stay far below 2^53; lease IDs do not, so those travel as strings. */
export function int64ToNumber(v: Int64 | null | undefined): number {
  if (v === null || v === undefined) return 0;
  return typeof v === 'number' ? v : v.toNumber();
}

export function int64ToString(v: Int64 | null | undefined): string {
  if (v === null || v === undefined) return '0';
  return typeof v === 'number' ? String(v) : v.toString();
}

export interface PbHeader {
  readonly cluster_id: Int64;
  readonly revision: Int64;
  readonly member_id: Int64;
}
export type ResponseHeaderLike = Pick<PbHeader, 'revision'>;

export interface PbKeyValue {
  readonly key: Buffer;
  readonly create_revision: Int64;
  readonly mod_revision: Int64;
  readonly version: Int64;
  readonly value: Buffer;
  readonly lease: Int64;
}

export interface RangeRequest {
  key: Buffer;
  range_end?: Buffer;
  limit?: number;
  revision?: number;
  serializable?: boolean;
  keys_only?: boolean;
  count_only?: boolean;
}
export interface RangeResponse {
  readonly header: PbHeader | null;
  readonly kvs: readonly PbKeyValue[];
  readonly more: boolean;
  readonly count: Int64;
}

export interface PutRequest {
  key: Buffer;
  value: Buffer;
  /** A lease ID as a decimal string (int64). */
  lease?: string;
  prev_kv?: boolean;
}
export interface PutResponse {
  readonly header: PbHeader | null;
  readonly prev_kv: PbKeyValue | null;
}

export interface DeleteRangeRequest {
  key: Buffer;
  range_end?: Buffer;
  prev_kv?: boolean;
}
export interface DeleteRangeResponse {
  readonly header: PbHeader | null;
  readonly deleted: Int64;
  readonly prev_kvs: readonly PbKeyValue[];
}

export type RequestOp =
  | { request_range: RangeRequest }
  | { request_put: PutRequest }
  | { request_delete_range: DeleteRangeRequest };

export interface ResponseOp {
  readonly response_range?: RangeResponse | null;
  readonly response_put?: PutResponse | null;
  readonly response_delete_range?: DeleteRangeResponse | null;
}

/** Compare.CompareResult and Compare.CompareTarget values on the wire. */
export const compareResult = { EQUAL: 0, GREATER: 1, LESS: 2, NOT_EQUAL: 3 } as const;
export const compareTarget = { VERSION: 0, CREATE: 1, MOD: 2, VALUE: 3, LEASE: 4 } as const;

export interface Compare {
  result: (typeof compareResult)[keyof typeof compareResult];
  target: (typeof compareTarget)[keyof typeof compareTarget];
  key: Buffer;
  version?: number;
  create_revision?: number;
  mod_revision?: number;
  value?: Buffer;
}

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}
export interface TxnResponse {
  readonly header: PbHeader | null;
  readonly succeeded: boolean;
  readonly responses: readonly ResponseOp[];
}

export interface CompactionRequest {
  revision: number;
  physical?: boolean;
}
export interface HeaderOnlyResponse {
  readonly header: PbHeader | null;
}

export interface WatchCreateRequest {
  key: Buffer;
  range_end?: Buffer;
  start_revision?: number;
  progress_notify?: boolean;
  prev_kv?: boolean;
  watch_id?: number;
}
export type WatchRequest =
  | { create_request: WatchCreateRequest }
  | { cancel_request: { watch_id: number } }
  | { progress_request: Record<string, never> };

export interface PbEvent {
  /** 0 = PUT, 1 = DELETE. */
  readonly type: number;
  readonly kv: PbKeyValue | null;
  readonly prev_kv: PbKeyValue | null;
}
export interface WatchResponse {
  readonly header: PbHeader | null;
  readonly watch_id: Int64;
  readonly created: boolean;
  readonly canceled: boolean;
  readonly compact_revision: Int64;
  readonly cancel_reason: string;
  readonly fragment: boolean;
  readonly events: readonly PbEvent[];
}

export interface LeaseGrantRequest {
  TTL: number;
  ID?: number;
}
export interface LeaseGrantResponse {
  readonly header: PbHeader | null;
  readonly ID: Int64;
  readonly TTL: Int64;
  readonly error: string;
}
export interface LeaseRevokeRequest {
  ID: string;
}
export interface LeaseKeepAliveRequest {
  ID: string;
}
export interface LeaseKeepAliveResponse {
  readonly header: PbHeader | null;
  readonly ID: Int64;
  /** Seconds left; 0 or less when the lease has expired or never existed. */
  readonly TTL: Int64;
}

export type StatusRequest = Record<string, never>;
export interface StatusResponse {
  readonly header: PbHeader | null;
  readonly version: string;
  readonly dbSize: Int64;
  /** The member ID of the current leader (0 while there is none). */
  readonly leader: Int64;
  readonly dbSizeInUse: Int64;
}
