// The objects of recent writes whose callers handed them over (UpdateOptions.handOver), kept so the
// next update of the same object reads its old state without decoding the cache's bytes again. The
// cache holds JSON; an update needs the object, and decoding a Pod's ~10 KB costs more than any other
// single step of a Pod update. Objects are read and changed in a read-modify-write loop (controllers
// writing status after a write, `kubectl apply` after `kubectl create`), so the last few written
// are the ones asked for next. Each object is given out once: its taker may change its metadata,
// but not the FieldsV1 objects a server's kept objects share, which are frozen
// (fields-v1-interner.ts), nor its members after metadata, which a write that shares them copies
// from the cache's JSON (LiveEncoding in managed-fields-span.ts). What is kept is bounded by the
// written JSON's size; the oldest go first. Checking (RecentWritesOptions.freezeHandedOut), every
// object kept, and every object a server's caches hand to an update, is frozen past its metadata,
// so that code breaking that rule throws instead of storing stale bytes.
import type { KubeObject } from '../../api/meta.js';
import { FieldsV1Interner } from '../fields-v1-interner.js';
import { deepFreeze } from './freeze.js';

/**
 * A server's default bound: 8 MiB of written JSON, about 800 Pods of ~10 KB (their decoded objects
 * take a few times that on the heap).
 */
export const defaultRecentWritesBytes = 8 * 1024 * 1024;

/** What the FieldsV1 texts of a server's shared trees may add up to: ~500 of a Pod's. */
const defaultSharedFieldsBytes = defaultRecentWritesBytes / 4;

interface Kept<T> {
  readonly revision: number;
  readonly object: T;
  readonly bytes: number;
}

export interface RecentWritesOptions<T> {
  /**
   * What an object becomes when it is kept: kept objects outlive the young generation, so parts
   * that equal other kept objects' are better shared (FieldsV1Interner). Called only on what is kept.
   */
  readonly compact?: (value: T) => T;
  /**
   * Freeze what is kept and what handedOut is given, all but its metadata: a check for tests
   * (startCapstan's checkSharing) that nothing changes in place what an update may copy from the
   * cache's JSON, from the write that kept it on.
   */
  readonly freezeHandedOut?: boolean;
}

export class RecentWrites<T> {
  readonly #maxBytes: number;
  readonly #compact: ((value: T) => T) | undefined;
  readonly #freeze: boolean;
  // Insertion order is age: a key written again is deleted and set anew.
  readonly #byKey = new Map<string, Kept<T>>();
  #bytes = 0;

  /** Keeps objects whose JSON adds up to at most `maxBytes` (0 keeps none). */
  constructor(maxBytes: number, opts: RecentWritesOptions<T> = {}) {
    this.#maxBytes = maxBytes;
    this.#compact = opts.compact;
    this.#freeze = opts.freezeHandedOut === true;
  }

  get size(): number {
    return this.#byKey.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Keeps `object`, written at `revision` as `bytes` of JSON, in place of what `key` had. */
  put(key: string, at: { revision: number; bytes: number }, object: T): void {
    this.#drop(key);
    if (at.bytes > this.#maxBytes) return;
    const value = this.handedOut(this.#compact === undefined ? object : this.#compact(object));
    this.#byKey.set(key, { revision: at.revision, object: value, bytes: at.bytes });
    this.#bytes += at.bytes;
    for (const [oldest, kept] of this.#byKey) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#byKey.delete(oldest);
      this.#bytes -= kept.bytes;
    }
  }

  /** The object kept for `key` if it is the one written at `revision`, given out once. */
  take(key: string, revision: number): T | undefined {
    const kept = this.#drop(key);
    return kept?.revision === revision ? kept.object : undefined;
  }

  /**
   * `object` (kept or decoded) as a cache hands it to an update: as it is, or, when checking, with
   * every top-level member but metadata frozen throughout.
   */
  handedOut(object: T): T {
    if (!this.#freeze || typeof object !== 'object' || object === null) return object;
    const members = object as Record<string, unknown>;
    for (const key in members) if (key !== 'metadata') deepFreeze(members[key]);
    return object;
  }

  /** Forgets what `key` had (it was deleted, or written by a caller that keeps its object). */
  forget(key: string): void {
    this.#drop(key);
  }

  clear(): void {
    this.#byKey.clear();
    this.#bytes = 0;
  }

  #drop(key: string): Kept<T> | undefined {
    const kept = this.#byKey.get(key);
    if (kept === undefined) return undefined;
    this.#byKey.delete(key);
    this.#bytes -= kept.bytes;
    return kept;
  }
}

/**
 * A server's recent writes: its default bound, the kept objects sharing equal FieldsV1 trees, and
 * what is handed out frozen past metadata when `check` (RecentWritesOptions.freezeHandedOut).
 */
export function serverRecentWrites(check = false): RecentWrites<KubeObject> {
  const interner = new FieldsV1Interner(defaultSharedFieldsBytes);
  return new RecentWrites<KubeObject>(defaultRecentWritesBytes, {
    compact: (obj) => interner.share(obj),
    freezeHandedOut: check,
  });
}
