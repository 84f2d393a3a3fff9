// The messages between the backend and its writer thread (writer-worker.ts). Values cross as copies
// (structured clone): Buffers arrive as plain Uint8Arrays and are turned back into Buffers on arrival.
import type { KeyValue } from '../../kv/backend.js';
import type { Outcome, WriteOp } from './apply-write.js';
import type { MaintenanceOutcome, MaintenanceTask } from './maintenance.js';

/** What the writer thread opens: the backend's file, already created and checked by the backend. */
export interface WriterConfig {
  readonly path: string;
  /** How long a write waits for a lock the backend's own connection holds (compaction). */
  readonly busyTimeoutMs: number;
  readonly quotaBytes: number;
}

export type ToWriter =
  /**
   * One transaction. `revision` is the newest in the file: the backend's committers take turns
   * (handoff-committer.ts), and at each batch only this thread inserts.
   */
  | {
      readonly type: 'batch';
      readonly ops: readonly WriteOp[];
      readonly now: number;
      readonly revision: number;
    }
  /** Run between two batches; answered by `maintained` with the same id. */
  | { readonly type: 'maintain'; readonly id: number; readonly task: MaintenanceTask }
  | { readonly type: 'close' };

/** A SQLite error as it crosses threads: its message and result code. */
export interface WireError {
  readonly message: string;
  readonly code: string;
}

/** A key-value as it crosses: its value a plain Uint8Array (moved, not cloned). */
export type WireKv = Omit<KeyValue, 'value'> & { readonly value: Uint8Array };

export type WireOutcome =
  (Omit<Outcome, 'live'> & { readonly live: WireKv | null }) | { readonly error: WireError };

export type FromWriter =
  /** The thread's connection is open: batches may come. */
  | { readonly type: 'ready' }
  | { readonly type: 'failed'; readonly error: WireError }
  | { readonly type: 'done'; readonly outcomes: readonly WireOutcome[]; readonly revision: number }
  | {
      readonly type: 'maintained';
      readonly id: number;
      readonly outcome: MaintenanceOutcome | { readonly error: WireError };
    };

export function wireError(err: unknown): WireError {
  const code = typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : '';
  return { message: err instanceof Error ? err.message : String(err), code };
}

export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A key-value that crossed threads, with its value a Buffer again. */
export function arrivedKv(kv: WireKv | null): KeyValue | null {
  return kv === null ? null : { ...kv, value: asBuffer(kv.value) };
}
