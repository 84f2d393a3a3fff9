// A watcher as a well-behaved client runs one: watch from a revision; when the stream ends, watch
// again from the last revision it delivered (an event or a bookmark); after a 410, list (recorded)
// and watch from the list's revision. Each HTTP watch is one recorded segment. A watcher with
// `hop` set starts each segment from a revision picked from those the clients recorded, and ends it
// after `hop` events, so watches start from many past revisions; with `hop.pause` it waits for it
// between segments (a paced load), else it starts the next one at once.
import { listAll, suiteLabel, toItem } from './configmap-ops.js';
import type { EventType, History, WatchSegment } from './history.js';
import type { KubeClient, WatchHandle } from './kube-client.js';

export interface WatcherOptions {
  readonly id: number;
  readonly client: KubeClient;
  readonly ns: string;
  readonly history: History;
  readonly now: () => number;
  readonly startRv: number;
  readonly hop?: {
    readonly events: number;
    readonly pick: () => number | undefined;
    readonly pause?: () => Promise<void>;
  };
  /** Waits before a retry after a failed watch or list (the server may be down). */
  readonly backoff: () => Promise<void>;
}

function watchPath(ns: string, rv: number): string {
  const q = `watch=1&allowWatchBookmarks=true&labelSelector=${suiteLabel}%3Dyes&resourceVersion=${rv}`;
  return `/api/v1/namespaces/${ns}/configmaps?${q}`;
}

export class Watcher {
  readonly #o: WatcherOptions;
  #stopped = false;
  #handle: WatchHandle | null = null;
  /** The last revision delivered (or listed), where a resumed watch starts. */
  lastRv: number;
  readonly done: Promise<void>;

  constructor(o: WatcherOptions) {
    this.#o = o;
    this.lastRv = o.startRv;
    this.done = this.#run();
  }

  isStopped(): boolean {
    return this.#stopped;
  }

  stop(): void {
    this.#stopped = true;
    this.#handle?.stop();
  }

  async #run(): Promise<void> {
    for (let first = true; !this.#stopped; first = false) {
      if (!first) await this.#o.hop?.pause?.();
      if (this.isStopped()) break;
      const from = this.#o.hop?.pick() ?? this.lastRv;
      this.lastRv = from;
      const seg: WatchSegment = { watcher: this.#o.id, startRv: from, events: [], end: 'open' };
      this.#o.history.segments.push(seg);
      const how = await this.#follow(seg);
      if (this.isStopped()) {
        seg.end = 'stopped';
        return;
      }
      seg.end = seg.end === 'open' ? how : seg.end;
      if (seg.end === 'gone') await this.#relist();
      else if (seg.end === 'error' && seg.events.length === 0) await this.#o.backoff();
    }
  }

  async #follow(seg: WatchSegment): Promise<'closed' | 'error'> {
    const handle = this.#o.client.watch(watchPath(this.#o.ns, seg.startRv), (ev) => {
      if (ev.type === 'ERROR') {
        seg.end = ev.object['code'] === 410 ? 'gone' : 'error';
        handle.stop();
        return;
      }
      const item = toItem(ev.object);
      seg.events.push({
        type: ev.type as EventType,
        key: item.key,
        value: item.value,
        rv: item.rv,
        at: this.#o.now(),
      });
      this.lastRv = Math.max(this.lastRv, item.rv);
      const hop = this.#o.hop;
      if (hop !== undefined && seg.events.length >= hop.events) handle.stop();
    });
    this.#handle = handle;
    const how = await handle.done;
    this.#handle = null;
    return how;
  }

  async #relist(): Promise<void> {
    while (!this.#stopped) {
      const call = this.#o.now();
      const list = await listAll(this.#o.client, this.#o.ns, 50);
      if (list !== undefined) {
        this.#o.history.lists.push({ client: 100 + this.#o.id, call, ret: this.#o.now(), ...list });
        this.lastRv = list.rv;
        return;
      }
      await this.#o.backoff();
    }
  }
}
