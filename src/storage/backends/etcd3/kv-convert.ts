// Conversions between etcd's wire messages and the kv port's shapes.
import type { KeyRange, KeyValue, KvEvent } from '../../kv/backend.js';
import { int64ToNumber, type PbEvent, type PbKeyValue, type ResponseHeaderLike } from './rpc-types.js';

const empty = Buffer.alloc(0);

export function keyBytes(key: string): Buffer {
  return Buffer.from(key, 'utf8');
}

export function rangeBytes(range: KeyRange): { key: Buffer; range_end: Buffer } {
  return { key: keyBytes(range.start), range_end: keyBytes(range.end) };
}

export function toKeyValue(kv: PbKeyValue): KeyValue {
  return {
    key: kv.key.toString('utf8'),
    value: kv.value.length === 0 ? empty : kv.value,
    createRevision: int64ToNumber(kv.create_revision),
    modRevision: int64ToNumber(kv.mod_revision),
  };
}

export function toKeyValueOrNull(kv: PbKeyValue | null | undefined): KeyValue | null {
  return kv === null || kv === undefined ? null : toKeyValue(kv);
}

/** etcd's delete events carry the key and the deletion revision; the port wants an empty value. */
export function toKvEvent(ev: PbEvent): KvEvent | null {
  const kv = ev.kv;
  if (kv === null) return null;
  const prevKv = toKeyValueOrNull(ev.prev_kv);
  if (ev.type === 1) {
    const key = kv.key.toString('utf8');
    return {
      type: 'delete',
      kv: { key, value: empty, createRevision: 0, modRevision: int64ToNumber(kv.mod_revision) },
      prevKv,
    };
  }
  return { type: 'put', kv: toKeyValue(kv), prevKv };
}

export function headerRevision(res: { readonly header: ResponseHeaderLike | null }): number {
  return int64ToNumber(res.header?.revision);
}
