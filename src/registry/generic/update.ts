// Store.Update (k8s.io/apiserver/pkg/registry/generic/registry/store.go): a guaranteed update that
// creates when allowed, enforces the resourceVersion (or fills it in for unconditional updates),
// runs the update steps, and deletes instead when the last finalizer of a deleted object goes.
import type { KubeObject, Preconditions } from '../../api/meta.js';
import {
  isStatusError,
  newConflict,
  newInvalid,
  newMethodNotSupported,
  newNotFound,
  type StatusError,
} from '../../machinery/errors/index.js';
import { FieldError, FieldPath, omitValue } from '../../machinery/validation/index.js';
import type { ResponseMeta } from '../../storage/interfaces.js';
import type { UpdateRequest } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import { isDryRun } from '../rest/options.js';
import type { UpdateStrategy } from '../rest/strategy.js';
import { beforeCreate } from './before-create.js';
import { beforeUpdate } from './before-update.js';
import { calculateTTL, checkGeneratedNameError } from './create.js';
import { deleteWithoutFinalizers } from './delete-on-update.js';
import type { DryRunUpdate } from './dry-run.js';
import { deepCopy, fillObjectMetaSystemFields, metaOf } from './object-meta.js';
import type { StoreCore } from './store-core.js';
import { interpretStorageError } from './storage-errors.js';

/** registry.OptimisticLockErrorMsg. */
export const optimisticLockErrorMsg =
  'the object has been modified; please apply your changes to the latest version and try again';

/** Thrown inside the update to switch to a delete (kube's errEmptiedFinalizers). */
class EmptiedFinalizers extends Error {}

/** registry.ShouldDeleteDuringUpdate: no finalizers left, deletion requested, no grace period left. */
export function shouldDeleteDuringUpdate(obj: KubeObject, existing: KubeObject): boolean {
  if ((obj.metadata?.finalizers ?? []).length > 0) return false;
  const old = existing.metadata ?? {};
  if ((old.deletionTimestamp ?? '') === '') return false;
  return (old.deletionGracePeriodSeconds ?? 0) === 0;
}

/** `metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`, kube's %#v of uint64 0. */
function resourceVersionRequired<T extends KubeObject>(core: StoreCore<T>, name: string): StatusError {
  const err = new FieldError({
    type: 'FieldValueInvalid',
    field: FieldPath.of('metadata', 'resourceVersion').toString(),
    badValue: omitValue,
    detail: '0x0: must be specified for an update',
  });
  // As kube's TODO says: this Invalid names the resource where a kind belongs.
  return newInvalid({ group: core.qualifiedResource.group, kind: core.qualifiedResource.resource }, name, [
    err,
  ]);
}

interface UpdateState<T extends KubeObject> {
  creating: boolean;
  creatingObj: T | null;
  deleteObj: T | null;
}

interface TryArgs<T extends KubeObject> {
  readonly core: StoreCore<T>;
  readonly ctx: RequestContext;
  readonly name: string;
  readonly req: UpdateRequest;
  readonly strategy: UpdateStrategy<T>;
  readonly state: UpdateState<T>;
  readonly upd: DryRunUpdate<T>;
}

async function createOnUpdate<T extends KubeObject>(a: TryArgs<T>, obj: T): Promise<T> {
  const strategy = a.core.createStrategy;
  if (strategy === undefined) throw newMethodNotSupported(a.core.qualifiedResource, 'create');
  fillObjectMetaSystemFields(metaOf(obj), a.core.clock.now());
  a.state.creating = true;
  a.state.creatingObj = obj;
  beforeCreate(a.core, a.ctx, { obj, strategy });
  const validated = a.req.createValidation?.(a.ctx, obj);
  if (validated !== undefined) await validated;
  a.upd.ttl = calculateTTL(a.core, obj, { existing: 0, update: false });
  return obj;
}

async function tryUpdate<T extends KubeObject>(
  a: TryArgs<T>,
  existing: T | null,
  res: ResponseMeta,
): Promise<T> {
  const { core, ctx, name, strategy, state } = a;
  const versioner = core.storage.storage.versioner;
  const existingRV = existing === null ? 0 : versioner.objectResourceVersion(existing);
  if (existingRV === 0 && !strategy.allowCreateOnUpdate && a.req.forceAllowCreate !== true) {
    throw newNotFound(core.qualifiedResource, name);
  }
  const given = existing === null || a.req.objInfo.readsOldOnly === true ? existing : deepCopy(existing);
  const obj = (await a.req.objInfo.updatedObject(ctx, given)) as T;
  const newRV = versioner.objectResourceVersion(obj);
  if (existing === null || existingRV === 0) return createOnUpdate(a, obj);

  state.creating = false;
  state.creatingObj = null;
  if (newRV === 0 && strategy.allowUnconditionalUpdate) {
    versioner.updateObject(obj, res.resourceVersion);
  } else if (newRV === 0) {
    throw resourceVersionRequired(core, name);
  } else if (newRV !== existingRV) {
    throw newConflict(core.qualifiedResource, name, optimisticLockErrorMsg);
  }
  beforeUpdate(core, ctx, { obj, old: existing, strategy });
  const validated = a.req.updateValidation?.(ctx, obj, existing);
  if (validated !== undefined) await validated;
  if (
    shouldDeleteDuringUpdate(obj, existing) &&
    (core.shouldDeleteDuringUpdate?.(ctx, obj, existing) ?? true)
  ) {
    state.deleteObj = obj;
    throw new EmptiedFinalizers('emptied finalizers');
  }
  a.upd.ttl = calculateTTL(core, obj, { existing: 0, update: true });
  return obj;
}

/** Updates (or, when allowed, creates) the named object; `created` says which happened. */
export async function updateObject<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  args: { name: string; req: UpdateRequest },
): Promise<{ object: T; created: boolean }> {
  const { name, req } = args;
  const strategy = core.updateStrategy;
  if (strategy === undefined) throw newMethodNotSupported(core.qualifiedResource, 'update');
  const key = core.keyFunc(ctx, name);
  const preconditions: Preconditions | undefined = req.objInfo.preconditions();
  const dryRun = isDryRun(req.options.dryRun);
  const state: UpdateState<T> = { creating: false, creatingObj: null, deleteObj: null };
  const upd: DryRunUpdate<T> = {
    tryUpdate: (existing, res) => tryUpdate({ core, ctx, name, req, strategy, state, upd }, existing, res),
    ignoreNotFound: strategy.allowCreateOnUpdate || req.forceAllowCreate === true,
    dryRun,
    ...(req.handsOverResult === true ? { handOver: true } : {}),
    ...(preconditions !== undefined ? { preconditions } : {}),
  };
  try {
    const object = await core.storage.guaranteedUpdate(key, upd);
    return { object, created: state.creating };
  } catch (err) {
    if (err instanceof EmptiedFinalizers && state.deleteObj !== null) {
      const object = await deleteWithoutFinalizers(core, ctx, {
        name,
        key,
        obj: state.deleteObj,
        preconditions,
        dryRun,
      });
      return { object, created: false };
    }
    if (state.creating && state.creatingObj !== null) {
      const status = interpretStorageError(err, {
        verb: 'create',
        qualifiedResource: core.qualifiedResource,
        name,
      });
      throw isStatusError(status) ? checkGeneratedNameError(core, status, state.creatingObj) : status;
    }
    throw interpretStorageError(err, { verb: 'update', qualifiedResource: core.qualifiedResource, name });
  }
}
