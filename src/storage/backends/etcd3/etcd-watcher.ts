// Watches multiplexed on one etcd Watch stream (as clientv3 shares a stream between watchers), with
// prevKV, progress notifications and resumption: when the stream breaks, every watch is re-created
// from the revision after the last one it saw, so events are neither lost nor repeated; after
// `retryTimeoutMs` without a working stream the watches end with BackendUnavailableError.
// Behaviour after k8s.io/apiserver/pkg/storage/etcd3/watcher.go and clientv3's watch.go.
import {
  BackendUnavailableError,
  CompactedError,
  type BackendWatch,
  type KeyRange,
  type KvEvent,
  type WatchCallbacks,
  type WatchRequest,
} from '../../kv/backend.js';
import type { EtcdClient } from './etcd-client.js';
import type { DuplexCall } from './grpc-channel.js';
import { grpcStatus, type GrpcStatusError } from './grpc-frames.js';
import { headerRevision, rangeBytes, toKvEvent } from './kv-convert.js';
import { int64ToNumber, type WatchRequest as PbWatchRequest, type WatchResponse } from './rpc-types.js';

interface WatchState {
  readonly id: number;
  readonly range: KeyRange;
  readonly progressNotify: boolean;
  readonly callbacks: WatchCallbacks;
  /** The first revision not yet delivered: where a re-created watch starts. */
  nextRevision: number;
  done: boolean;
}

/** Stream failures that a new stream will not cure. */
const permanentCodes: ReadonlySet<number> = new Set([
  grpcStatus.UNAUTHENTICATED,
  grpcStatus.PERMISSION_DENIED,
  grpcStatus.INVALID_ARGUMENT,
  grpcStatus.UNIMPLEMENTED,
  grpcStatus.FAILED_PRECONDITION,
]);

export class EtcdWatcher {
  readonly #client: EtcdClient;
  readonly #retryTimeoutMs: number;
  readonly #watches = new Map<number, WatchState>();
  #nextId = 1;
  #call: DuplexCall<PbWatchRequest> | null = null;
  /** Watch ids present when each unanswered progress request was sent, oldest first. */
  #progressWaiters: Set<number>[] = [];
  #brokenSince: number | null = null;
  #retries = 0;
  #retryTimer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(opts: { client: EtcdClient; retryTimeoutMs?: number }) {
    this.#client = opts.client;
    this.#retryTimeoutMs = opts.retryTimeoutMs ?? 20_000;
  }

  watch(range: KeyRange, req: WatchRequest, callbacks: WatchCallbacks): BackendWatch {
    if (this.#closed) {
      queueMicrotask(() => {
        report(callbacks, new BackendUnavailableError('etcd3: backend is closed'));
      });
      return {
        cancel: () => {
          // never started
        },
      };
    }
    const w: WatchState = {
      id: this.#nextId++,
      range,
      progressNotify: req.progressNotify === true,
      callbacks,
      nextRevision: req.fromRevision,
      done: false,
    };
    this.#watches.set(w.id, w);
    if (this.#call !== null) this.#sendCreate(this.#call, w);
    else if (this.#retryTimer === null) this.#open();
    return {
      cancel: () => {
        this.#cancel(w);
      },
    };
  }

  /** Sends a WatchProgressRequest; etcd answers on every watch of the stream (watch_id -1). */
  requestProgress(): void {
    if (this.#call === null || this.#watches.size === 0) return;
    this.#progressWaiters.push(new Set(this.#watches.keys()));
    this.#call.write({ progress_request: {} });
  }

  get activeWatches(): number {
    return this.#watches.size;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#call?.cancel();
    this.#call = null;
    this.#failAll(new BackendUnavailableError('etcd3: backend is closed'));
  }

  #open(): void {
    this.#progressWaiters = [];
    let call: DuplexCall<PbWatchRequest> | null = null;
    call = this.#client.openWatchStream({
      onMessage: (res) => {
        if (call !== null && call === this.#call) this.#onResponse(res);
      },
      onEnd: (err) => {
        if (call !== null && call === this.#call) this.#onStreamEnd(err);
      },
    });
    this.#call = call;
    for (const w of this.#watches.values()) this.#sendCreate(call, w);
  }

  #sendCreate(call: DuplexCall<PbWatchRequest>, w: WatchState): void {
    const { key, range_end } = rangeBytes(w.range);
    call.write({
      create_request: {
        key,
        range_end,
        start_revision: Math.max(0, w.nextRevision),
        progress_notify: w.progressNotify,
        prev_kv: true,
        watch_id: w.id,
      },
    });
  }

  #onResponse(res: WatchResponse): void {
    this.#brokenSince = null;
    this.#retries = 0;
    const id = int64ToNumber(res.watch_id);
    const rev = headerRevision(res);
    if (id === -1) {
      const asked = this.#progressWaiters.shift() ?? new Set<number>();
      for (const wid of asked) {
        const w = this.#watches.get(wid);
        if (w !== undefined) this.#progress(w, rev);
      }
      return;
    }
    const w = this.#watches.get(id);
    if (w === undefined) return;
    if (res.canceled) {
      this.#onCanceled(w, res);
    } else if (res.created) {
      // A watch from "now" (revision 0) starts after the revision it was created at.
      if (w.nextRevision <= 0) w.nextRevision = rev + 1;
    } else if (res.events.length > 0) {
      this.#deliver(w, res);
    } else {
      this.#progress(w, rev);
    }
  }

  #deliver(w: WatchState, res: WatchResponse): void {
    const events: KvEvent[] = [];
    for (const pb of res.events) {
      const ev = toKvEvent(pb);
      // A re-created watch may see the tail of a batch again; the port promises no repeats.
      if (ev !== null && ev.kv.modRevision >= w.nextRevision) events.push(ev);
    }
    const last = events[events.length - 1];
    if (last === undefined) return;
    w.nextRevision = last.kv.modRevision + 1;
    this.#invoke(w, () => {
      w.callbacks.onEvents(events);
    });
  }

  /** A progress report below what the watch already covers (a watch from the future) is dropped. */
  #progress(w: WatchState, rev: number): void {
    if (rev <= 0 || rev + 1 < w.nextRevision) return;
    w.nextRevision = rev + 1;
    this.#invoke(w, () => {
      w.callbacks.onProgress(rev);
    });
  }

  #onCanceled(w: WatchState, res: WatchResponse): void {
    const compacted = int64ToNumber(res.compact_revision);
    const err =
      compacted > 0
        ? new CompactedError(w.nextRevision, compacted)
        : new Error(`etcd3: etcd canceled the watch: ${res.cancel_reason || 'no reason given'}`);
    this.#end(w, err);
  }

  /** Runs a consumer callback; one that throws ends its own watch and nothing else. */
  #invoke(w: WatchState, fn: () => void): void {
    if (w.done) return;
    try {
      fn();
    } catch (err) {
      this.#cancel(w);
      report(w.callbacks, err instanceof Error ? err : new Error(String(err)));
    }
  }

  #end(w: WatchState, err: Error): void {
    if (w.done) return;
    this.#cancel(w);
    report(w.callbacks, err);
  }

  #cancel(w: WatchState): void {
    if (w.done) return;
    w.done = true;
    this.#watches.delete(w.id);
    const call = this.#call;
    if (call === null) return;
    if (this.#watches.size > 0) {
      call.write({ cancel_request: { watch_id: w.id } });
      return;
    }
    // The last watch is gone: drop the stream rather than keep an idle one open (clientv3 does too).
    this.#call = null;
    call.cancel();
  }

  /** Ends every watch with `err` (each cancelled on the stream); new ones may start. */
  interruptAll(err: Error): void {
    for (const w of [...this.#watches.values()]) this.#end(w, err);
  }

  #onStreamEnd(err: GrpcStatusError | null): void {
    this.#call = null;
    this.#progressWaiters = [];
    if (this.#closed || this.#watches.size === 0) return;
    const why = err === null ? 'etcd closed the watch stream' : err.message;
    if (err !== null && permanentCodes.has(err.code)) {
      this.#failAll(new Error(`etcd3: watch stream failed: ${why}`, { cause: err }));
      return;
    }
    const now = Date.now();
    this.#brokenSince ??= now;
    if (now - this.#brokenSince >= this.#retryTimeoutMs) {
      this.#failAll(new BackendUnavailableError(`etcd3: watch stream lost: ${why}`, { cause: err }));
      return;
    }
    const delay = Math.min(2_000, 50 * 2 ** this.#retries++);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      if (!this.#closed && this.#watches.size > 0 && this.#call === null) this.#open();
    }, delay);
    this.#retryTimer.unref();
  }

  #failAll(err: Error): void {
    const all = [...this.#watches.values()];
    this.#watches.clear();
    for (const w of all) {
      w.done = true;
      report(w.callbacks, err);
    }
  }
}

function report(callbacks: WatchCallbacks, err: Error): void {
  try {
    callbacks.onError(err);
  } catch {
    // The watch is over either way; a consumer that throws from onError has nobody left to tell.
  }
}
