// An object's past: every stored revision of one key that compaction has left, oldest first. A
// backend that keeps its log in a table reads it in one query (SQLite); any other walks back from
// the newest value with reads at modRevision-1 until the revision that created it (etcd's MVCC).
import { CompactedError, type Backend, type KeyValue } from './backend.js';

export interface KeyRevision {
  readonly modRevision: number;
  /** 0 for a deletion. */
  readonly createRevision: number;
  /** A tombstone: the key was deleted at modRevision (empty value). */
  readonly deleted: boolean;
  readonly value: Buffer;
}

export interface KeyHistory {
  /** The store's revision when the history was read. */
  readonly revision: number;
  /** Revisions at or below it may have been forgotten: the history may start later than the object. */
  readonly compactRevision: number;
  /** Oldest first. */
  readonly revisions: readonly KeyRevision[];
}

/** The most revisions a history holds (the newest ones). */
export const maxHistoryRevisions = 1000;

const toRevision = (kv: KeyValue): KeyRevision => ({
  modRevision: kv.modRevision,
  createRevision: kv.createRevision,
  deleted: false,
  value: kv.value,
});

/**
 * The history of `key` through the port's reads alone: the newest value, then the one before each,
 * back to its creation or to the compaction window. A deleted key has no history this way.
 */
export async function walkBackHistory(backend: Backend, key: string): Promise<KeyHistory> {
  const head = await backend.get(key);
  const revisions: KeyRevision[] = [];
  let kv = head.kv;
  while (kv !== null && revisions.length < maxHistoryRevisions) {
    revisions.push(toRevision(kv));
    if (kv.modRevision <= kv.createRevision) break;
    try {
      kv = (await backend.get(key, { revision: kv.modRevision - 1 })).kv;
    } catch (err) {
      if (err instanceof CompactedError) break;
      throw err;
    }
  }
  const compactRevision = await backend.compactRevision();
  return { revision: head.revision, compactRevision, revisions: revisions.reverse() };
}

/** The backend's own history read when it has one, the walk back otherwise. */
export function keyHistory(backend: Backend, key: string): Promise<KeyHistory> {
  return backend.history !== undefined ? backend.history(key) : walkBackHistory(backend, key);
}
