// A storage.Interface over another that tests can misbehave: break every open watch with an ERROR
// event, or hold a list until released (a cache that cannot finish its first list).
import type { KubeList, KubeObject, Status } from '../../../api/meta.js';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  Interface,
  ListOptions,
  Revision,
  UpdateOptions,
  Versioner,
  Watch,
} from '../../interfaces.js';
import { WatchChan } from '../../watch-chan.js';

export class FlakyStorage<T extends KubeObject> implements Interface<T> {
  readonly #inner: Interface<T>;
  readonly #watches = new Set<WatchChan<T>>();
  #held: Promise<void> | null = null;
  #release: () => void = () => undefined;
  /** Lists served so far. */
  lists = 0;
  /** Drop requestWatchProgress calls (a store that cannot report progress on demand). */
  ignoreProgressRequests = false;

  constructor(inner: Interface<T>) {
    this.#inner = inner;
  }

  get versioner(): Versioner {
    return this.#inner.versioner;
  }

  /** The next list (the cacher's first, when called before it starts) waits until releaseList(). */
  holdNextList(): void {
    this.#held ??= new Promise((resolve) => (this.#release = resolve));
  }

  releaseList(): void {
    this.#release();
  }

  /** Ends every open watch with an ERROR event carrying `status`. */
  breakWatches(status: Status): void {
    for (const chan of this.#watches) chan.close({ type: 'ERROR', object: status });
    this.#watches.clear();
  }

  async watch(key: string, opts?: ListOptions<T>): Promise<Watch<T>> {
    const inner = await this.#inner.watch(key, opts);
    const chan = new WatchChan<T>({
      onStop: () => {
        inner.stop();
      },
    });
    this.#watches.add(chan);
    void (async () => {
      for await (const event of inner) if (!chan.push(event)) break;
      inner.stop();
    })();
    return chan;
  }

  async getList(key: string, opts?: ListOptions<T>): Promise<KubeList<T>> {
    const held = this.#held;
    this.#held = null;
    if (held !== null) await held;
    this.lists++;
    return this.#inner.getList(key, opts);
  }

  create(key: string, obj: T, opts?: CreateOptions): Promise<T> {
    return this.#inner.create(key, obj, opts);
  }

  delete(key: string, opts?: DeleteOptions<T>): Promise<T> {
    return this.#inner.delete(key, opts);
  }

  get(key: string, opts?: GetOptions): Promise<T | null> {
    return this.#inner.get(key, opts);
  }

  guaranteedUpdate(key: string, opts: UpdateOptions<T>): Promise<T> {
    return this.#inner.guaranteedUpdate(key, opts);
  }

  count(key: string): Promise<number> {
    return this.#inner.count(key);
  }

  currentResourceVersion(): Promise<Revision> {
    return this.#inner.currentResourceVersion();
  }

  requestWatchProgress(): Promise<void> {
    if (this.ignoreProgressRequests) return Promise.resolve();
    return this.#inner.requestWatchProgress();
  }

  readinessCheck(): Promise<void> {
    return this.#inner.readinessCheck();
  }
}
