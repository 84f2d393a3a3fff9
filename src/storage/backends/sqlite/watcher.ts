// One watch: its range, the first revision it wants, and a queue that hands batches and progress
// notifications to its callbacks in order from a microtask, never from inside a commit. While its
// history is replayed (catch-up.ts) live commits and progress reports are held back, then released
// behind the replay. A callback that throws ends this watch (onError) and nothing else.
import type { BackendWatch, KeyRange, KvEvent, WatchCallbacks } from '../../kv/backend.js';
import { inRange } from './key-range.js';

type Item =
  | { readonly kind: 'events'; readonly events: readonly KvEvent[] }
  | { readonly kind: 'progress'; readonly revision: number }
  | { readonly kind: 'error'; readonly err: Error };

export interface WatcherInit {
  readonly range: KeyRange;
  readonly callbacks: WatchCallbacks;
  readonly progressNotify: boolean;
  /** Called once when the watch ends, however it ends. */
  readonly onEnd: (w: Watcher) => void;
}

export class Watcher implements BackendWatch {
  readonly #range: KeyRange;
  readonly #callbacks: WatchCallbacks;
  readonly #onEnd: (w: Watcher) => void;
  readonly progressNotify: boolean;
  #fromRevision = 0;
  #queue: Item[] = [];
  /** Live items held back while history is replayed; null once the watch is live. */
  #held: Item[] | null = null;
  #scheduled = false;
  /** No more items are accepted. */
  #ended = false;
  /** Nothing more is delivered. */
  #cancelled = false;

  constructor(init: WatcherInit) {
    this.#range = init.range;
    this.#callbacks = init.callbacks;
    this.#onEnd = init.onEnd;
    this.progressNotify = init.progressNotify;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Events below this revision are not delivered (they were replayed, or were not asked for). */
  startAt(revision: number): void {
    this.#fromRevision = revision;
  }

  /** Queues this watch's share of one commit. */
  offer(events: readonly KvEvent[]): void {
    const mine = this.#mine(events);
    if (mine.length > 0) this.#enqueue({ kind: 'events', events: mine });
  }

  progress(revision: number): void {
    this.#enqueue({ kind: 'progress', revision });
  }

  /** Live commits and progress wait until releaseLive(): history is being replayed first. */
  holdLive(): void {
    this.#held ??= [];
  }

  /** Queues replayed history, ahead of anything held. */
  replay(events: readonly KvEvent[]): void {
    const mine = this.#mine(events);
    if (mine.length > 0 && !this.#ended) this.#push({ kind: 'events', events: mine });
  }

  releaseLive(): void {
    const held = this.#held ?? [];
    this.#held = null;
    if (!this.#ended) for (const item of held) this.#push(item);
  }

  #mine(events: readonly KvEvent[]): readonly KvEvent[] {
    return events.filter((e) => e.kv.modRevision >= this.#fromRevision && inRange(e.kv.key, this.#range));
  }

  #enqueue(item: Item): void {
    if (this.#ended) return;
    if (this.#held !== null) this.#held.push(item);
    else this.#push(item);
  }

  /** Ends the watch with `err`, after what was already queued (held live items are dropped). */
  fail(err: Error): void {
    if (this.#ended) return;
    this.#held = null;
    this.#push({ kind: 'error', err });
    this.#end();
  }

  cancel(): void {
    this.#cancelled = true;
    this.#queue = [];
    this.#held = null;
    this.#end();
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#onEnd(this);
  }

  #push(item: Item): void {
    this.#queue.push(item);
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#drain();
    });
  }

  #drain(): void {
    this.#scheduled = false;
    const items = this.#queue;
    this.#queue = [];
    for (const item of items) {
      if (!this.#deliver(item)) return;
    }
  }

  /** False once the watch is over: a callback threw, or it was cancelled from inside a callback. */
  #deliver(item: Item): boolean {
    if (this.#cancelled) return false;
    if (item.kind === 'error') {
      this.#cancelled = true;
      this.#safeError(item.err);
      return false;
    }
    try {
      if (item.kind === 'events') this.#callbacks.onEvents(item.events);
      else this.#callbacks.onProgress(item.revision);
    } catch (err) {
      this.cancel();
      this.#safeError(new Error(`watch ended: its ${item.kind} callback threw`, { cause: err }));
      return false;
    }
    return true;
  }

  #safeError(err: Error): void {
    try {
      this.#callbacks.onError(err);
    } catch {
      // Nothing is left to tell: the watch is over and its consumer is failing.
    }
  }
}
