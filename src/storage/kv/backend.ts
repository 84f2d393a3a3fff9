// The narrow port every kv backend implements (after k3s-io/kine's Backend), shaped by its one
// caller, KvStore. Keys are full storage keys (prefix included); values are opaque bytes.
// Expected outcomes (a failed compare-and-swap) are data; faults are thrown.
import type { KeyHistory } from './key-history.js';

export interface KeyValue {
  readonly key: string;
  readonly value: Buffer;
  readonly createRevision: number;
  readonly modRevision: number;
}

/** Half-open key range [start, end), compared bytewise as etcd does. */
export interface KeyRange {
  readonly start: string;
  readonly end: string;
}

export interface KvEvent {
  readonly type: 'put' | 'delete';
  /** For a delete: the key, an empty value and the deletion's revision as modRevision. */
  readonly kv: KeyValue;
  /** The previous value of the key, when there was one. */
  readonly prevKv: KeyValue | null;
}

export interface RangeResult {
  /** The revision the read was served at (the store's current revision unless one was asked). */
  readonly revision: number;
  readonly kvs: readonly KeyValue[];
  /** More keys lie in the range past the limit. */
  readonly more: boolean;
}

export type WriteResult =
  | { readonly ok: true; readonly revision: number; readonly prevKv: KeyValue | null }
  | { readonly ok: false; readonly revision: number; readonly current: KeyValue | null };

export interface WatchCallbacks {
  /** A batch of events in revision order, with no gap and no repeat across batches. */
  onEvents(events: readonly KvEvent[]): void;
  /** The watch has seen every event up to this revision (etcd's progress notify). */
  onProgress(revision: number): void;
  /** The watch has ended with this error (CompactedError when fromRevision was compacted). */
  onError(err: Error): void;
}

export interface BackendWatch {
  cancel(): void;
}

export interface WatchRequest {
  /** First revision to deliver; events at revisions below it are not sent. */
  readonly fromRevision: number;
  /** Ask for periodic onProgress calls. */
  readonly progressNotify?: boolean;
}

/**
 * Leases a writer keeps alive (etcd's): keys written with one vanish when it is no longer renewed,
 * and a renewal writes nothing (the store's revision stays). Only shared stores have them.
 */
export interface SessionLeases {
  grant(ttlSeconds: number): Promise<string>;
  /** Renews the lease; resolves with the seconds it has left, 0 or less when it is gone. */
  keepAlive(id: string): Promise<number>;
  /** Ends the lease, deleting its keys. */
  revoke(id: string): Promise<void>;
}

export interface Backend {
  /** Backend type name for logs and metrics ("sqlite", "memory", "etcd3"). */
  readonly type: string;
  /** This process is the store: its current revision is known without a round trip. */
  readonly local?: boolean;
  currentRevision(): Promise<number>;
  /**
   * A local store's current revision, read at once (throws what currentRevision() rejects with);
   * absent on a store that must be asked.
   */
  revisionNow?(): number;
  /** The newest value at or below `revision` (default: current). CompactedError below the compacted revision. */
  get(key: string, opts?: { revision?: number }): Promise<{ revision: number; kv: KeyValue | null }>;
  list(range: KeyRange, opts?: { revision?: number; limit?: number }): Promise<RangeResult>;
  count(range: KeyRange, opts?: { revision?: number }): Promise<{ revision: number; count: number }>;
  /** Writes only when the key does not exist (mod_revision == 0); `lease`: one of `sessions`. */
  create(key: string, value: Buffer, opts?: { ttl?: number; lease?: string }): Promise<WriteResult>;
  /** Writes only when the key's mod_revision equals `modRevision`. */
  update(
    key: string,
    value: Buffer,
    opts: { modRevision: number; ttl?: number; lease?: string },
  ): Promise<WriteResult>;
  /** Leases kept alive by their writer; absent on a local store (nothing else shares it). */
  readonly sessions?: SessionLeases;
  /** Deletes only when the key's mod_revision equals `modRevision`. */
  delete(key: string, opts: { modRevision: number }): Promise<WriteResult>;
  watch(range: KeyRange, req: WatchRequest, callbacks: WatchCallbacks): BackendWatch;
  /** Asks every watch to report progress soon. */
  requestProgress(): Promise<void>;
  /**
   * Whether requestProgress() makes watches report progress (etcd before 3.4.31 / 3.5.13 does not
   * answer such requests in order, so there they are not sent). Absent: it does.
   */
  supportsRequestProgress?(): Promise<boolean>;
  /** Forgets superseded values at or below `revision`. */
  compact(revision: number): Promise<void>;
  /**
   * Ends every watch in progress with `err`, the backend staying open (a test's forced compaction:
   * the watch caches list again, as after a watch that broke on a compacted revision).
   */
  interruptWatches?(err: Error): void;
  /** The newest compacted revision (reads and watches below it fail with CompactedError). */
  compactRevision(): Promise<number>;
  /** Bytes the backend occupies on disk (or in memory). */
  size(): Promise<number>;
  /**
   * Every revision of one key the backend still holds, tombstones included, oldest first. Optional:
   * without it, history is read by walking back with get (key-history.ts).
   */
  history?(key: string): Promise<KeyHistory>;
  /**
   * An image of the whole store (every revision kept, the revision counter included) that a new
   * backend of the same type opens as it is; embedded backends only. Test snapshots fork from it.
   */
  serialize?(): Buffer;
  close(): Promise<void>;
}

/** A read or watch asked for a revision the backend has compacted away. */
export class CompactedError extends Error {
  readonly compactRevision: number;
  readonly requestedRevision: number;
  constructor(requested: number, compacted: number) {
    super(`mvcc: required revision ${requested} has been compacted (compacted revision ${compacted})`);
    this.name = 'CompactedError';
    this.compactRevision = compacted;
    this.requestedRevision = requested;
  }
}

/** A read asked for a revision the backend has not reached yet. */
export class FutureRevisionError extends Error {
  readonly currentRevision: number;
  readonly requestedRevision: number;
  constructor(requested: number, current: number) {
    super(`mvcc: required revision ${requested} is a future revision (current revision ${current})`);
    this.name = 'FutureRevisionError';
    this.currentRevision = current;
    this.requestedRevision = requested;
  }
}

/**
 * The backend refused a write for lack of space: etcd's quota (NOSPACE, "etcdserver: mvcc: database
 * space exceeded") or SQLite's SQLITE_FULL (its quota, or a full disk). kube-apiserver passes etcd's
 * error through, so the client gets a 500 with its text; the store passes it through as well.
 */
export class BackendNoSpaceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BackendNoSpaceError';
  }
}

/** The backend could not be reached or failed to do I/O; the store maps it to Unreachable. */
export class BackendUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BackendUnavailableError';
  }
}

/** The range holding every key that starts with `prefix` (etcd's GetPrefixRangeEnd). */
export function prefixRange(prefix: string): KeyRange {
  return { start: prefix, end: prefixEnd(prefix) };
}

/**
 * The smallest key greater than every key with this prefix. Storage keys are ASCII (they are built
 * from validated names), so bumping the last character is bytewise-correct for SQLite and etcd alike.
 */
export function prefixEnd(prefix: string): string {
  if (prefix === '') return '\0';
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
