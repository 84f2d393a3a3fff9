// The compare-and-swap transactions kube's etcd3 store issues (store.go: Create, GuaranteedUpdate,
// conditionalDelete), each with a read of the key on the failure branch so a refused write returns
// the current value in the same round trip.
import type { KeyValue, WriteResult } from '../../kv/backend.js';
import { headerRevision, keyBytes, toKeyValueOrNull } from './kv-convert.js';
import {
  compareResult,
  compareTarget,
  type RequestOp,
  type TxnRequest,
  type TxnResponse,
} from './rpc-types.js';

function modRevisionIs(key: Buffer, modRevision: number): TxnRequest['compare'][number] {
  return { result: compareResult.EQUAL, target: compareTarget.MOD, key, mod_revision: modRevision };
}

function putOp(key: Buffer, value: Buffer, opts: { lease: string | undefined; prevKv: boolean }): RequestOp {
  const { lease, prevKv } = opts;
  return { request_put: { key, value, prev_kv: prevKv, ...(lease === undefined ? {} : { lease }) } };
}

/** txn(mod_revision(key) == 0 → put, else get): create only when the key does not exist. */
export function createTxn(key: string, value: Buffer, lease?: string): TxnRequest {
  const k = keyBytes(key);
  return {
    compare: [modRevisionIs(k, 0)],
    success: [putOp(k, value, { lease, prevKv: false })],
    failure: [{ request_range: { key: k } }],
  };
}

/** txn(mod_revision(key) == rev → put with prevKV, else get). */
export function updateTxn(
  key: string,
  value: Buffer,
  opts: { modRevision: number; lease?: string | undefined },
): TxnRequest {
  const k = keyBytes(key);
  return {
    compare: [modRevisionIs(k, opts.modRevision)],
    success: [putOp(k, value, { lease: opts.lease, prevKv: true })],
    failure: [{ request_range: { key: k } }],
  };
}

/** txn(mod_revision(key) == rev → delete with prevKV, else get). */
export function deleteTxn(key: string, modRevision: number): TxnRequest {
  const k = keyBytes(key);
  return {
    compare: [modRevisionIs(k, modRevision)],
    success: [{ request_delete_range: { key: k, prev_kv: true } }],
    failure: [{ request_range: { key: k } }],
  };
}

function failedCurrent(res: TxnResponse): KeyValue | null {
  return toKeyValueOrNull(res.responses[0]?.response_range?.kvs[0]);
}

function succeededPrev(res: TxnResponse): KeyValue | null {
  const op = res.responses[0];
  if (op === undefined) return null;
  return toKeyValueOrNull(op.response_put?.prev_kv ?? op.response_delete_range?.prev_kvs[0]);
}

export function writeResult(res: TxnResponse): WriteResult {
  const revision = headerRevision(res);
  if (res.succeeded) return { ok: true, revision, prevKv: succeededPrev(res) };
  return { ok: false, revision, current: failedCurrent(res) };
}
