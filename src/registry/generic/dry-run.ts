// DryRunnableStorage (k8s.io/apiserver/pkg/registry/generic/registry/dryrun.go): the writes of a
// dry-run request do everything a real one would (read, preconditions, validation) but the write.
import type { KubeObject, Preconditions } from '../../api/meta.js';
import { keyExists } from '../../storage/errors.js';
import { checkPreconditions } from '../../storage/preconditions.js';
import type { Interface, ResponseMeta, TryUpdate } from '../../storage/interfaces.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';

export interface DryRunUpdate<T extends KubeObject> {
  readonly tryUpdate: TryUpdate<T>;
  readonly ignoreNotFound?: boolean;
  readonly preconditions?: Preconditions;
  /** Seconds to live, read after tryUpdate ran (a create on update may choose it). */
  ttl?: number;
  readonly dryRun: boolean;
  /** UpdateOptions.handOver, for a write that is not a dry run. */
  readonly handOver?: boolean;
}

export interface DryRunDelete<T extends KubeObject> {
  readonly preconditions?: Preconditions;
  readonly validateDeletion?: (obj: T) => void | Promise<void>;
  readonly dryRun: boolean;
}

export class DryRunnableStorage<T extends KubeObject = KubeObject> {
  readonly storage: Interface<T>;

  constructor(storage: Interface<T>) {
    this.storage = storage;
  }

  async create(key: string, obj: T, opts: { ttl?: number; dryRun: boolean }): Promise<T> {
    if (opts.dryRun) {
      const existing = await this.storage.get(key, { ignoreNotFound: true });
      if (existing !== null) throw keyExists(key, 0);
      return deepCopyJSON(obj);
    }
    return this.storage.create(key, obj, opts.ttl !== undefined && opts.ttl > 0 ? { ttl: opts.ttl } : {});
  }

  async delete(key: string, opts: DryRunDelete<T>): Promise<T> {
    if (opts.dryRun) {
      const current = (await this.storage.get(key)) as T;
      checkPreconditions(key, opts.preconditions, current);
      if (opts.validateDeletion !== undefined) await opts.validateDeletion(current);
      return current;
    }
    const real: { preconditions?: Preconditions; validateDeletion?: (obj: T) => void | Promise<void> } = {};
    if (opts.preconditions !== undefined) real.preconditions = opts.preconditions;
    if (opts.validateDeletion !== undefined) real.validateDeletion = opts.validateDeletion;
    return this.storage.delete(key, real);
  }

  async guaranteedUpdate(key: string, opts: DryRunUpdate<T>): Promise<T> {
    if (opts.dryRun) {
      const current = await this.storage.get(key, { ignoreNotFound: opts.ignoreNotFound === true });
      checkPreconditions(key, opts.preconditions, current);
      const meta: ResponseMeta = {
        resourceVersion: current === null ? 0 : this.storage.versioner.objectResourceVersion(current),
      };
      return deepCopyJSON(await opts.tryUpdate(current, meta));
    }
    // KvStore reads `ttl` after each tryUpdate, so a TTL chosen inside the callback is honoured.
    return this.storage.guaranteedUpdate(key, opts);
  }
}
