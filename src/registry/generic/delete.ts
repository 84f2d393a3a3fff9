// Store.Delete (k8s.io/apiserver/pkg/registry/generic/registry/store.go): graceful deletion, the
// garbage collector's finalizers and deletionTimestamp, then the delete itself.
import type { KubeObject, Preconditions } from '../../api/meta.js';
import { isStorageError } from '../../storage/errors.js';
import type { ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import { isDryRun, type DeleteOptions } from '../rest/options.js';
import { beforeDelete } from './before-delete.js';
import { deletionFinalizersForGarbageCollection, markAsDeleting } from './gc-finalizers.js';
import type { StoreCore } from './store-core.js';
import { interpretStorageError } from './storage-errors.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';

export interface DeleteRequest {
  readonly options: DeleteOptions;
  readonly validate?: ValidateObjectFunc;
}

const allowAll: ValidateObjectFunc = () => undefined;

/** finalizeDelete: the deleted object, or a Success Status naming it (kind is the resource, as kube does). */
export function finalizeDelete<T extends KubeObject>(core: StoreCore<T>, obj: KubeObject): KubeObject {
  if (core.returnDeletedObject) return obj;
  const qr = core.qualifiedResource;
  const details: Record<string, string> = { name: obj.metadata?.name ?? '' };
  if (qr.group !== '') details.group = qr.group;
  details.kind = qr.resource;
  const uid = obj.metadata?.uid ?? '';
  if (uid !== '') details.uid = uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

class DeleteNow extends Error {}
class AlreadyDeleting extends Error {}

interface GracefulOutcome {
  readonly deleteImmediately: boolean;
  readonly ignoreNotFound: boolean;
  readonly out: KubeObject | null;
  readonly lastExisting: KubeObject | null;
}

interface GracefulArgs<T extends KubeObject> {
  readonly name: string;
  readonly key: string;
  readonly options: DeleteOptions;
  readonly preconditions: Preconditions | undefined;
  readonly validate: ValidateObjectFunc;
  readonly obj: T;
}

interface Seen<T extends KubeObject> {
  lastGraceful: number;
  pendingFinalizers: boolean;
  lastExisting: T | null;
}

/** The update callback of a graceful or finalizer-held delete; records what it decided in `seen`. */
function gracefulTryUpdate<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  run: { a: GracefulArgs<T>; seen: Seen<T> },
): (existing: T | null) => Promise<T> {
  const { a, seen } = run;
  return async (existing) => {
    if (existing === null) throw new Error('object vanished during delete');
    await a.validate(ctx, existing);
    const { graceful, gracefulPending } = beforeDelete(core, ctx, { obj: existing, options: a.options });
    if (gracefulPending) throw new AlreadyDeleting();
    // Finalizers cannot be changed through DeleteOptions once deletion has started (checked above).
    const gc = deletionFinalizersForGarbageCollection(core, existing, a.options);
    const meta = (existing.metadata ??= {});
    if (gc.needsUpdate) {
      if (gc.finalizers.length > 0) meta.finalizers = gc.finalizers;
      else delete meta.finalizers;
    }
    seen.pendingFinalizers = (meta.finalizers ?? []).length > 0;
    if (!graceful) {
      if (!seen.pendingFinalizers) throw new DeleteNow();
      markAsDeleting(existing, core.clock.now());
      return existing;
    }
    seen.lastGraceful = a.options.gracePeriodSeconds ?? 0;
    seen.lastExisting = existing;
    return existing;
  };
}

/** updateForGracefulDeletionAndFinalizers: mark the object instead of removing it, when that is due. */
async function updateForGracefulDeletionAndFinalizers<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  a: GracefulArgs<T>,
): Promise<GracefulOutcome> {
  // Storage may run the callback more than once; the last run's decisions count.
  const seen: Seen<T> = { lastGraceful: 0, pendingFinalizers: false, lastExisting: null };
  let out: T;
  try {
    out = await core.storage.guaranteedUpdate(a.key, {
      tryUpdate: gracefulTryUpdate(core, ctx, { a, seen }),
      dryRun: isDryRun(a.options.dryRun),
      ...(a.preconditions !== undefined ? { preconditions: a.preconditions } : {}),
    });
  } catch (err) {
    const { lastExisting } = seen;
    if (err instanceof DeleteNow)
      return { deleteImmediately: true, ignoreNotFound: false, out: null, lastExisting };
    if (err instanceof AlreadyDeleting) {
      return {
        deleteImmediately: false,
        ignoreNotFound: false,
        out: finalizeDelete(core, a.obj),
        lastExisting,
      };
    }
    throw interpretStorageError(err, {
      verb: 'update',
      qualifiedResource: core.qualifiedResource,
      name: a.name,
    });
  }
  const { lastExisting } = seen;
  if (seen.pendingFinalizers || seen.lastGraceful > 0) {
    return { deleteImmediately: false, ignoreNotFound: false, out, lastExisting };
  }
  // A graceless delete after a graceful update: another component may win the race to delete it.
  return { deleteImmediately: true, ignoreNotFound: true, out, lastExisting };
}

async function readForDelete<T extends KubeObject>(
  core: StoreCore<T>,
  key: string,
  name: string,
): Promise<T> {
  try {
    return (await core.storage.storage.get(key)) as T;
  } catch (err) {
    throw interpretStorageError(err, { verb: 'delete', qualifiedResource: core.qualifiedResource, name });
  }
}

/** Deletes the named object; `deleted` is false when it was only marked (grace period, finalizers). */
export async function deleteObject<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  args: { name: string; req: DeleteRequest },
): Promise<{ object: KubeObject; deleted: boolean }> {
  const { name } = args;
  const key = core.keyFunc(ctx, name);
  const obj = await readForDelete(core, key, name);
  // beforeDelete may fill in the grace period; the caller's options stay untouched.
  const options: DeleteOptions = deepCopyJSON(args.req.options);
  const validate = args.req.validate ?? allowAll;
  const preconditions: Preconditions | undefined =
    options.preconditions === undefined ? undefined : { ...options.preconditions };
  const dryRun = isDryRun(options.dryRun);

  const { graceful, gracefulPending } = beforeDelete(core, ctx, { obj, options });
  if (gracefulPending) return { object: finalizeDelete(core, obj), deleted: false };

  let outcome: GracefulOutcome = {
    deleteImmediately: true,
    ignoreNotFound: false,
    out: null,
    lastExisting: null,
  };
  const pendingFinalizers = (obj.metadata?.finalizers ?? []).length > 0;
  const { needsUpdate } = deletionFinalizersForGarbageCollection(core, obj, options);
  if (graceful || pendingFinalizers || needsUpdate) {
    outcome = await updateForGracefulDeletionAndFinalizers(core, ctx, {
      name,
      key,
      options,
      preconditions,
      validate,
      obj,
    });
    // The update moved the object on: its new resourceVersion is the one the delete must match.
    const rv = outcome.out?.metadata?.resourceVersion;
    if (outcome.deleteImmediately && preconditions?.resourceVersion !== undefined && rv !== undefined) {
      preconditions.resourceVersion = rv;
    }
  }
  if (!outcome.deleteImmediately) return { object: outcome.out ?? obj, deleted: false };
  // A dry run has nothing more to learn from storage; the marked object is the answer.
  if (dryRun && outcome.out !== null) return { object: outcome.out, deleted: true };

  try {
    const out = await core.storage.delete(key, {
      dryRun,
      validateDeletion: (current) => validate(ctx, current),
      ...(preconditions !== undefined ? { preconditions } : {}),
    });
    return { object: finalizeDelete(core, out), deleted: true };
  } catch (err) {
    if (isStorageError(err, 'KeyNotFound') && outcome.ignoreNotFound && outcome.lastExisting !== null) {
      return { object: finalizeDelete(core, outcome.lastExisting), deleted: true };
    }
    throw interpretStorageError(err, { verb: 'delete', qualifiedResource: core.qualifiedResource, name });
  }
}
