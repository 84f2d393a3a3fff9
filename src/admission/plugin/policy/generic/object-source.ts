// The policies and bindings as an informer holds them (kube's generic.PolicySource over shared
// informers): one list of the watch cache's state, then a watch from its revision, relisting after
// a backoff when the watch ends, until closed. Admission reads the maps and never waits on storage.
import type { KubeObject } from '../../../../api/meta.js';
import type { Lister, Watcher } from '../../../../registry/rest/capabilities.js';
import { internalContext } from '../../../../registry/rest/context.js';
import { stopReason } from '../../../../machinery/errors/stop-reason.js';

export type ObjectEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ObjectSourceOptions {
  readonly source: Lister & Watcher;
  /** Called after each change the map took, the list included (once, type undefined). */
  readonly onChange?: (type: ObjectEventType | undefined, obj: KubeObject | undefined) => void;
  /** The map's key of an object; by default its name (cluster-scoped objects). */
  readonly keyOf?: (obj: KubeObject) => string;
}

const byName = (obj: KubeObject): string => obj.metadata?.name ?? '';

const backoff = { initialMs: 100, maxMs: 10_000 };

/** Objects by name (or the given key), kept current from list and watch. */
export class ObjectSource<T extends KubeObject> {
  readonly #items = new Map<string, T>();
  readonly #abort = new AbortController();
  readonly #opts: ObjectSourceOptions;
  readonly #loop: Promise<void>;

  constructor(opts: ObjectSourceOptions) {
    this.#opts = opts;
    this.#loop = this.#run();
  }

  get size(): number {
    return this.#items.size;
  }

  get(name: string): T | undefined {
    return this.#items.get(name);
  }

  values(): IterableIterator<T> {
    return this.#items.values();
  }

  async close(): Promise<void> {
    this.#abort.abort(stopReason);
    await this.#loop;
  }

  async #run(): Promise<void> {
    const signal = this.#abort.signal;
    const stopped = (): boolean => signal.aborted;
    let wait = backoff.initialMs;
    while (!signal.aborted) {
      try {
        await this.#listAndWatch(signal);
        wait = backoff.initialMs;
      } catch {
        if (stopped()) return;
        await sleep(wait, signal);
        wait = Math.min(wait * 2, backoff.maxMs);
      }
    }
  }

  async #listAndWatch(signal: AbortSignal): Promise<void> {
    const ctx = internalContext({ signal });
    const list = await this.#opts.source.list(ctx, { resourceVersion: '0', readOnly: true });
    const keyOf = this.#opts.keyOf ?? byName;
    this.#items.clear();
    for (const item of list.items) this.#items.set(keyOf(item), item as T);
    this.#opts.onChange?.(undefined, undefined);
    const rv = list.metadata.resourceVersion ?? '';
    const watch = await this.#opts.source.watch(ctx, rv === '' ? {} : { resourceVersion: rv });
    const stop = (): void => {
      watch.stop();
    };
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const event of watch) {
        if (event.type === 'ERROR') throw new Error(event.object.message ?? 'watch error');
        if (event.type === 'BOOKMARK') continue;
        const key = keyOf(event.object);
        if (event.type === 'DELETED') this.#items.delete(key);
        else this.#items.set(key, event.object as T);
        this.#opts.onChange?.(event.type, event.object);
      }
    } finally {
      signal.removeEventListener('abort', stop);
      watch.stop();
    }
    if (!signal.aborted) throw new Error('the watch ended');
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
