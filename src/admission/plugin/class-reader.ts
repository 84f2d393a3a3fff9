// How the class-reading plugins (Priority, DefaultStorageClass, DefaultIngressClass, RuntimeClass)
// see the cluster-scoped objects kube gives them through informer listers: a list or a read at
// resourceVersion "0", which the watch cache answers without a round trip to storage. A named
// object the cache does not have yet is read from storage once more, so a class created a moment
// ago is found (kube would wait for its informer instead). The plugins only read what they get, so
// the cache shares its frozen decodes with them, as informer listers share their objects.
import type { KubeObject } from '../../api/meta.js';
import { isStatusError } from '../../machinery/errors/index.js';
import {
  isGetter,
  isLister,
  type Getter,
  type Lister,
  type Storage,
} from '../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../registry/rest/context.js';
import { listerGet } from '../../registry/rest/lister-read.js';

export interface ClassReader<T extends KubeObject> {
  /** Every object, from the watch cache, for the request `ctx`. */
  list(ctx: RequestContext): Promise<T[]>;
  /** One object by name; undefined when neither the cache nor storage has it. */
  get(name: string, ctx: RequestContext): Promise<T | undefined>;
}

const isNotFound = (err: unknown): boolean => isStatusError(err) && err.reason === 'NotFound';

/** A reader over a cluster-scoped storage that can get and list. */
export function classReader<T extends KubeObject>(storage: Getter & Lister): ClassReader<T> {
  return {
    async list(ctx) {
      const list = await storage.list(internalContext({ parent: ctx }), {
        resourceVersion: '0',
        readOnly: true,
      });
      return list.items as T[];
    },
    async get(name, ctx) {
      try {
        return await listerGet<T>(storage, internalContext({ parent: ctx }), name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return undefined;
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
