// A shared informer over one served resource (client-go's SharedIndexInformer, without indexes):
// lists and watches through the watch cache, keeps the objects by namespace/name, and tells its
// handlers about every change. Lists of the whole resource are kept; a relist reports what vanished.
import type { KubeObject } from '../../../api/meta.js';
import type { Lister, Watcher } from '../../../registry/rest/capabilities.js';
import { runListWatch } from '../list-watch.js';

export type InformerEventType = 'ADDED' | 'MODIFIED' | 'DELETED';
export type InformerHandler<T> = (type: InformerEventType, obj: T, old: T | undefined) => void;

export const keyOf = (obj: KubeObject): string => {
  const ns = obj.metadata?.namespace ?? '';
  const name = obj.metadata?.name ?? '';
  return ns === '' ? name : `${ns}/${name}`;
};

/** A namespace/name key split again. */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export class Informer<T extends KubeObject> {
  readonly #source: Lister & Watcher;
  readonly #items = new Map<string, T>();
  readonly #handlers: InformerHandler<T>[] = [];
  readonly #onError: (err: unknown) => void;
  #synced = false;
  #markSynced: () => void = () => undefined;
  readonly synced: Promise<void>;

  constructor(source: Lister & Watcher, onError: (err: unknown) => void) {
    this.#source = source;
    this.#onError = onError;
    this.synced = new Promise((resolve) => {
      this.#markSynced = resolve;
    });
  }

  addHandler(handler: InformerHandler<T>): void {
    this.#handlers.push(handler);
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  /** The objects held, those of one namespace when given. */
  list(namespace?: string): T[] {
    const all = [...this.#items.values()];
    return namespace === undefined ? all : all.filter((o) => (o.metadata?.namespace ?? '') === namespace);
  }

  /** Runs until `signal` aborts. */
  run(signal: AbortSignal): Promise<void> {
    return runListWatch({
      source: this.#source,
      signal,
      listResourceVersion: '0',
      onList: (items) => {
        this.#replace(items as T[]);
      },
      onEvent: (type, obj) => {
        this.#apply(type, obj as T);
      },
      onError: this.#onError,
    });
  }

  #replace(items: readonly T[]): void {
    const seen = new Set<string>();
    for (const item of items) {
      seen.add(keyOf(item));
      this.#apply('ADDED', item);
    }
    for (const [key, old] of [...this.#items]) if (!seen.has(key)) this.#apply('DELETED', old);
    if (!this.#synced) {
      this.#synced = true;
      this.#markSynced();
    }
  }

  #apply(type: InformerEventType, obj: T): void {
    const key = keyOf(obj);
    const old = this.#items.get(key);
    if (type === 'DELETED') this.#items.delete(key);
    else this.#items.set(key, obj);
    const reported = type === 'DELETED' ? type : old === undefined ? 'ADDED' : 'MODIFIED';
    if (reported === 'MODIFIED' && old?.metadata?.resourceVersion === obj.metadata?.resourceVersion) return;
    for (const handler of this.#handlers) handler(reported, obj, old);
  }
}
