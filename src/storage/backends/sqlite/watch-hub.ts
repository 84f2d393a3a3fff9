// The live watches. This process is the only writer, so each commit is fanned out to them straight
// away (no polling of the table, unlike kine); progress notifications ride the same per-watch queues,
// so a watch hears "up to revision R" only after every event at or below R.
import type { KeyRange, KvEvent, WatchCallbacks } from '../../kv/backend.js';
import { Watcher } from './watcher.js';

export interface WatchHubDeps {
  readonly progressNotifyIntervalMs: number;
  readonly currentRevision: () => number;
}

export class WatchHub {
  readonly #deps: WatchHubDeps;
  readonly #watchers = new Set<Watcher>();
  #timer: NodeJS.Timeout | null = null;

  constructor(deps: WatchHubDeps) {
    this.#deps = deps;
  }

  get size(): number {
    return this.#watchers.size;
  }

  /** A watch that is not yet live: the caller replays history into it, then calls goLive. */
  create(range: KeyRange, callbacks: WatchCallbacks, progressNotify: boolean): Watcher {
    return new Watcher({
      range,
      callbacks,
      progressNotify,
      onEnd: (w) => {
        this.#watchers.delete(w);
        if (this.#watchers.size === 0) this.#stopTimer();
      },
    });
  }

  goLive(w: Watcher): void {
    if (w.ended) return;
    this.#watchers.add(w);
    const every = this.#deps.progressNotifyIntervalMs;
    if (this.#timer === null && w.progressNotify && every > 0) {
      this.#timer = setInterval(() => {
        this.#notify(true);
      }, every);
      this.#timer.unref();
    }
  }

  publish(events: readonly KvEvent[]): void {
    for (const w of this.#watchers) w.offer(events);
  }

  /** Every watch hears the current revision soon (etcd's RequestProgress). */
  requestProgress(): void {
    this.#notify(false);
  }

  #notify(onlyAsked: boolean): void {
    const rev = this.#deps.currentRevision();
    for (const w of this.#watchers) if (!onlyAsked || w.progressNotify) w.progress(rev);
  }

  #stopTimer(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Ends every watch with `err`; new ones may start. */
  failAll(err: Error): void {
    for (const w of [...this.#watchers]) w.fail(err);
    this.#watchers.clear();
  }

  /** Ends every watch with `err`, for good. */
  close(err: Error): void {
    this.#stopTimer();
    this.failAll(err);
  }
}
