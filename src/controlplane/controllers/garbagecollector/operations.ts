// The garbage collector's reads and writes (kube's garbagecollector/operations.go and patch.go),
// through the same admitted storages a client's requests use: live reads, deletes preconditioned on
// the object's uid and resourceVersion, and updates that drop owner references, unblock them, or
// remove a finalizer from the object as it is now.
import type { KubeObject, OwnerReference } from '../../../api/meta.js';
import { newNotFound, reasonForError } from '../../../machinery/errors/index.js';
import {
  isGetter,
  isGracefulDeleter,
  isLister,
  isUpdater,
  type Getter,
  type GracefulDeleter,
  type Updater,
} from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { PropagationPolicy } from '../../../registry/rest/options.js';
import type { ObjectIdentity } from './identity.js';
import type { CollectedResource, ServedResources } from './resources.js';

/** No served resource has this apiVersion and kind (yet): kube's restMappingError, retried. */
export class RestMappingError extends Error {
  constructor(id: { apiVersion: string; kind: string }) {
    super(`unable to get REST mapping for ${id.kind}/${id.apiVersion}.`);
  }
}

/** A cluster-scoped object names a namespaced owner: never valid, not retried. */
export class NamespacedOwnerOfClusterScopedObjectError extends Error {
  constructor() {
    super('cluster-scoped objects cannot refer to namespaced owners');
  }
}

export const isNotFound = (err: unknown): boolean => reasonForError(err) === 'NotFound';
export const isConflict = (err: unknown): boolean => reasonForError(err) === 'Conflict';

const sameOwners = (a: readonly OwnerReference[], b: readonly OwnerReference[]): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

interface Target {
  readonly resource: CollectedResource;
  readonly ctx: RequestContext;
  readonly name: string;
}

export class Operations {
  readonly #resources: () => ServedResources;
  readonly #signal: AbortSignal;

  constructor(resources: () => ServedResources, signal: AbortSignal) {
    this.#resources = resources;
    this.#signal = signal;
  }

  /** The resource and namespace an identity is read and written at (resourceDefaultNamespace). */
  target(id: ObjectIdentity): Target {
    const resource = this.#resources().mapping(id.apiVersion, id.kind);
    if (resource === undefined) throw new RestMappingError(id);
    const namespace = resource.namespaced ? id.namespace : '';
    // The type is namespaced but there is no namespace: only a cluster-scoped dependent says so.
    if (resource.namespaced && namespace === '') throw new NamespacedOwnerOfClusterScopedObjectError();
    return { resource, ctx: internalContext({ namespace, signal: this.#signal }), name: id.name };
  }

  /** getObject: the object as it is now; undefined when there is none by that name. */
  async get(id: ObjectIdentity): Promise<KubeObject | undefined> {
    const t = this.target(id);
    try {
      return await getter(t.resource).get(t.ctx, t.name, {});
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** The objects of the identity's kind named like it, in every namespace (from the watch cache). */
  async findByName(id: ObjectIdentity): Promise<KubeObject[]> {
    const storage = this.#resources().mapping(id.apiVersion, id.kind)?.storage;
    if (storage === undefined || !isLister(storage)) return [];
    const ctx = internalContext({ signal: this.#signal });
    return (await storage.list(ctx, { fieldSelector: `metadata.name=${id.name}` })).items;
  }

  /**
   * deleteObject: preconditioned on the uid and, when given, the resourceVersion read; when only the
   * resourceVersion moved on and the owner references are as read, deleted again on the uid alone.
   */
  async delete(
    id: ObjectIdentity,
    how: { policy: PropagationPolicy; resourceVersion: string; owners: readonly OwnerReference[] },
  ): Promise<void> {
    const t = this.target(id);
    const deleter = gracefulDeleter(t.resource);
    const once = (resourceVersion: string | undefined): Promise<unknown> =>
      deleter.delete(t.ctx, t.name, {
        options: {
          propagationPolicy: how.policy,
          preconditions: { uid: id.uid, ...(resourceVersion === undefined ? {} : { resourceVersion }) },
        },
      });
    try {
      await once(how.resourceVersion === '' ? undefined : how.resourceVersion);
    } catch (err) {
      if (!isConflict(err) || how.resourceVersion === '') throw err;
      const live = await getter(t.resource).get(t.ctx, t.name, {});
      const meta = live.metadata ?? {};
      if (
        meta.uid !== id.uid ||
        meta.resourceVersion === how.resourceVersion ||
        !sameOwners(meta.ownerReferences ?? [], how.owners)
      )
        throw err;
      await once(undefined);
    }
  }

  /** The object with its owner references to `uids` removed (a dependent orphaned, dangling refs). */
  removeOwnerReferences(id: ObjectIdentity, uids: ReadonlySet<string>): Promise<void> {
    return this.#updateMeta(id, (meta) => {
      const refs = meta.ownerReferences ?? [];
      const kept = refs.filter((r) => !uids.has(r.uid));
      if (kept.length === refs.length) return false;
      if (kept.length > 0) meta.ownerReferences = kept;
      else delete meta.ownerReferences;
      return true;
    });
  }

  /** Every blocking owner reference of the object made non-blocking (a foreground cycle broken). */
  unblockOwnerReferences(id: ObjectIdentity): Promise<void> {
    return this.#updateMeta(id, (meta) => {
      const refs = meta.ownerReferences ?? [];
      if (!refs.some((r) => r.blockOwnerDeletion === true)) return false;
      meta.ownerReferences = refs.map((r) =>
        r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r,
      );
      return true;
    });
  }

  /** removeFinalizer: the store deletes the object when that was the last one of a deletion. */
  async removeFinalizer(id: ObjectIdentity, finalizer: string): Promise<void> {
    try {
      await this.#updateMeta(id, (meta) => {
        const finalizers = meta.finalizers ?? [];
        if (!finalizers.includes(finalizer)) return false;
        meta.finalizers = finalizers.filter((f) => f !== finalizer);
        return true;
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /**
   * An update of the object's metadata as it is now, when `change` changes it; preconditioned on the
   * uid (kube puts it in its patches), so an object recreated under the name is left alone.
   */
  async #updateMeta(
    id: ObjectIdentity,
    change: (meta: NonNullable<KubeObject['metadata']>) => boolean,
  ): Promise<void> {
    const t = this.target(id);
    const updater = updaterOf(t.resource);
    class Unchanged extends Error {}
    try {
      await updater.update(t.ctx, t.name, {
        objInfo: {
          preconditions: () => ({ uid: id.uid }),
          updatedObject: (_ctx, old) => {
            const gr = { group: t.resource.gvr.group, resource: t.resource.gvr.resource };
            if (old === null) return Promise.reject(newNotFound(gr, t.name));
            const obj = structuredClone(old);
            if (!change((obj.metadata ??= {}))) return Promise.reject(new Unchanged());
            return Promise.resolve(obj);
          },
        },
        options: {},
      });
    } catch (err) {
      if (!(err instanceof Unchanged)) throw err;
    }
  }
}

function getter(r: CollectedResource): Getter {
  if (!isGetter(r.storage)) throw new Error(`${r.gvr.resource} cannot be read`);
  return r.storage;
}

function gracefulDeleter(r: CollectedResource): GracefulDeleter {
  if (!isGracefulDeleter(r.storage)) throw new Error(`${r.gvr.resource} cannot be deleted`);
  return r.storage;
}

function updaterOf(r: CollectedResource): Updater {
  if (!isUpdater(r.storage)) throw new Error(`${r.gvr.resource} cannot be updated`);
  return r.storage;
}
