// The simulated cluster's writes through the admitted storages, as its components' clientsets would
// make them: creates, whole-object updates (a stale resourceVersion is a Conflict, retried by the
// caller's requeue), named creates of subresources (pods/binding) and deletes.
import type { KubeObject } from '../../../api/meta.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isCreater,
  isGetter,
  isGracefulDeleter,
  isLister,
  isNamedCreater,
  isUpdater,
  isWatcher,
  type Lister,
  type Storage,
  type Watcher,
} from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { DeleteOptions } from '../../../registry/rest/options.js';

/** `group/version/resource[/subresource]`, '' as the core group. */
export type ResourcePath = `${string}/${string}/${string}`;

export class MissingResourceError extends Error {
  constructor(path: string, what: string) {
    super(`the simulated cluster needs ${path} to ${what}`);
  }
}

export class APIClient {
  readonly #groups: readonly APIGroupInfo[];
  readonly #signal: AbortSignal;
  readonly #fieldManager: string;

  constructor(opts: { groups: readonly APIGroupInfo[]; signal: AbortSignal; fieldManager: string }) {
    this.#groups = opts.groups;
    this.#signal = opts.signal;
    this.#fieldManager = opts.fieldManager;
  }

  /** The same client writing under another field manager (kube-scheduler, kubelet, …). */
  as(fieldManager: string): APIClient {
    return new APIClient({ groups: this.#groups, signal: this.#signal, fieldManager });
  }

  storage(path: ResourcePath): Storage | undefined {
    const [group = '', version = '', ...rest] = path.split('/');
    const g = this.#groups.find((x) => x.group === group);
    return g?.versionedResourcesStorageMap[version]?.[rest.join('/')];
  }

  source(path: ResourcePath): Lister & Watcher {
    const s = this.storage(path);
    if (s === undefined || !isLister(s) || !isWatcher(s)) throw new MissingResourceError(path, 'watch');
    return s;
  }

  create<T extends KubeObject>(path: ResourcePath, namespace: string, obj: T): Promise<T> {
    const s = this.storage(path);
    if (s === undefined || !isCreater(s)) throw new MissingResourceError(path, 'create');
    const ctx = internalContext({ namespace, signal: this.#signal });
    return s.create(ctx, obj, { options: { fieldManager: this.#fieldManager } }) as Promise<T>;
  }

  /** POST …/<name>/<subresource>, such as a pod's binding. */
  createNamed(
    path: ResourcePath,
    target: { namespace: string; name: string },
    obj: KubeObject,
  ): Promise<KubeObject> {
    const s = this.storage(path);
    if (s === undefined || !isNamedCreater(s)) throw new MissingResourceError(path, 'create');
    const ctx = internalContext({ namespace: target.namespace, signal: this.#signal });
    return s.createNamed(ctx, target.name, { obj, options: { fieldManager: this.#fieldManager } });
  }

  /** A fresh read from storage, to retry a write that met a newer object than an informer holds. */
  async get<T extends KubeObject>(
    path: ResourcePath,
    target: { namespace: string; name: string },
  ): Promise<T> {
    const s = this.storage(path);
    if (s === undefined || !isGetter(s)) throw new MissingResourceError(path, 'get');
    const ctx = internalContext({ namespace: target.namespace, signal: this.#signal });
    return (await s.get(ctx, target.name, {})) as T;
  }

  /** A PUT of the whole object; its resourceVersion makes a stale write a Conflict. */
  async update<T extends KubeObject>(path: ResourcePath, obj: T): Promise<T> {
    const s = this.storage(path);
    if (s === undefined || !isUpdater(s)) throw new MissingResourceError(path, 'update');
    const namespace = obj.metadata?.namespace ?? '';
    const ctx = internalContext({ namespace, signal: this.#signal });
    const result = await s.update(ctx, obj.metadata?.name ?? '', {
      objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(obj) },
      options: { fieldManager: this.#fieldManager },
    });
    return result.object as T;
  }

  async delete(
    path: ResourcePath,
    target: { namespace: string; name: string },
    options: DeleteOptions,
  ): Promise<void> {
    const s = this.storage(path);
    if (s === undefined || !isGracefulDeleter(s)) throw new MissingResourceError(path, 'delete');
    const ctx = internalContext({ namespace: target.namespace, signal: this.#signal });
    await s.delete(ctx, target.name, { options });
  }
}

/** A deep copy to change: informers hand out the objects they hold. */
export const copyOf = <T>(obj: T): T => structuredClone(obj);
