// How the class-reading plugins (Priority, DefaultStorageClass, DefaultIngressClass, RuntimeClass)
// see the cluster-scoped objects kube gives them through informer listers: an informer's state
// (list and watch of the watch cache) when the storage can watch, else a list or a read at
// resourceVersion "0", which the watch cache answers without a round trip to storage. A named
// object the informer or the cache does not have yet is read from storage once more, so a class
// created a moment ago is found (kube would wait for its informer instead). The plugins only read
// what they get, so the cache shares its frozen decodes with them, as informer listers share theirs.
import type { KubeObject } from '../../api/meta.js';
import { isStatusError } from '../../machinery/errors/index.js';
import {
  isGetter,
  isLister,
  type Getter,
  type Lister,
  type Storage,
  type Watcher,
} from '../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../registry/rest/context.js';
import { listerGet } from '../../registry/rest/lister-read.js';
import { ObjectSource } from './policy/generic/object-source.js';

export interface ClassReader<T extends KubeObject> {
  /** Every object, from the informer or the watch cache, for the request `ctx`. */
  list(ctx: RequestContext): Promise<readonly T[]>;
  /** One object by name; undefined when neither the cache nor storage has it. */
  get(name: string, ctx: RequestContext): Promise<T | undefined>;
  /** What list() answers when the informer has listed, at once; undefined when list() must read. */
  listNow(): readonly T[] | undefined;
  /** The named object when the informer holds it, at once; undefined when get() must read. */
  getNow(name: string): T | undefined;
  /** Stops the informer (the plugin closes). */
  close(): void;
}

const isNotFound = (err: unknown): boolean => isStatusError(err) && err.reason === 'NotFound';

/** The informer's objects, or undefined before it has listed; one array per change. */
class ClassInformer<T extends KubeObject> {
  readonly #source: ObjectSource<T>;
  #synced = false;
  #items: readonly T[] | undefined;

  constructor(storage: Lister & Watcher) {
    this.#source = new ObjectSource<T>({
      source: storage,
      onChange: () => {
        this.#synced = true;
        this.#items = undefined;
      },
    });
  }

  list(): readonly T[] | undefined {
    if (!this.#synced) return undefined;
    this.#items ??= [...this.#source.values()];
    return this.#items;
  }

  get(name: string): T | undefined {
    return this.#synced ? this.#source.get(name) : undefined;
  }

  close(): void {
    void this.#source.close();
  }
}

/** A reader over a cluster-scoped storage that can get and list (and, for an informer, watch). */
export function classReader<T extends KubeObject>(
  storage: Getter & Lister & Partial<Watcher>,
): ClassReader<T> {
  const informer =
    typeof storage.watch === 'function' ? new ClassInformer<T>(storage as Lister & Watcher) : undefined;
  return {
    async list(ctx) {
      const informed = informer?.list();
      if (informed !== undefined) return informed;
      const list = await storage.list(internalContext({ parent: ctx }), {
        resourceVersion: '0',
        readOnly: true,
      });
      return list.items as T[];
    },
    listNow() {
      return informer?.list();
    },
    getNow(name) {
      return informer?.get(name);
    },
    async get(name, ctx) {
      const informed = informer?.get(name);
      if (informed !== undefined) return informed;
      try {
        return await listerGet<T>(storage, internalContext({ parent: ctx }), name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return undefined;
    },
    close() {
      informer?.close();
    },
  };
}

/** The reader when the storage exists and can be read, else undefined. */
export function classReaderOf<T extends KubeObject>(
  storage: Storage | undefined,
): ClassReader<T> | undefined {
  return storage !== undefined && isGetter(storage) && isLister(storage)
    ? classReader<T>(storage)
    : undefined;
}

/** kube's pick among several objects annotated as the default: the newest, then the first by name. */
export function newestDefault<T extends KubeObject>(items: readonly T[]): T | undefined {
  const time = (o: T): number => Date.parse(o.metadata?.creationTimestamp ?? '') || 0;
  const sorted = [...items].sort((a, b) => {
    const dt = time(b) - time(a);
    if (dt !== 0) return dt;
    const an = a.metadata?.name ?? '';
    const bn = b.metadata?.name ?? '';
    return an < bn ? -1 : an > bn ? 1 : 0;
  });
  return sorted[0];
}
