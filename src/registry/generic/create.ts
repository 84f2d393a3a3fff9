// Store.Create (k8s.io/apiserver/pkg/registry/generic/registry/store.go): system fields, name
// generation (retried on collision), the create steps, admission, and the write.
import type { KubeObject } from '../../api/meta.js';
import {
  isStatusError,
  newMethodNotSupported,
  statusError,
  type StatusError,
} from '../../machinery/errors/index.js';
import { groupResourceString } from '../../machinery/schema/group-resource.js';
import { goQuote } from '../../machinery/validation/index.js';
import type { ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import { isDryRun, type CreateOptions } from '../rest/options.js';
import { beforeCreate } from './before-create.js';
import { fillObjectMetaSystemFields, isBeingDeleted, metaOf } from './object-meta.js';
import type { StoreCore } from './store-core.js';
import { interpretStorageError } from './storage-errors.js';

/** Attempts with a fresh generated name before giving up (kube's maxNameGenerationCreateAttempts). */
const maxNameGenerationCreateAttempts = 8;

export interface CreateRequest<T extends KubeObject> {
  readonly obj: T;
  readonly options: CreateOptions;
  readonly validate?: ValidateObjectFunc;
}

function needsNameGeneration(obj: KubeObject): boolean {
  return (obj.metadata?.generateName ?? '') !== '' && (obj.metadata?.name ?? '') === '';
}

/** rest.CheckGeneratedNameError: a taken generated name is the server's failure, not the client's. */
export function checkGeneratedNameError<T extends KubeObject>(
  core: StoreCore<T>,
  err: StatusError,
  obj: KubeObject,
): StatusError {
  if (err.reason !== 'AlreadyExists' || (obj.metadata?.generateName ?? '') === '') return err;
  const qr = core.qualifiedResource;
  const name = obj.metadata?.name ?? '';
  return statusError({
    reason: 'AlreadyExists',
    message: `${groupResourceString(qr)} ${goQuote(name)} already exists, the server was not able to generate a unique name for the object`,
    details: { name, group: qr.group, kind: qr.resource, retryAfterSeconds: 1 },
  });
}

/** Seconds to live for a write (kube's calculateTTL); 0 means no expiry. */
export function calculateTTL<T extends KubeObject>(
  core: StoreCore<T>,
  obj: T,
  at: { existing: number; update: boolean },
): number {
  const existing = at.existing < 0 ? 1 : at.existing;
  return core.ttlFunc === undefined ? existing : core.ttlFunc(obj, { existing, update: at.update });
}

async function annotateBeingDeleted<T extends KubeObject>(
  core: StoreCore<T>,
  key: string,
  err: StatusError,
): Promise<void> {
  const existing = await core.storage.storage.get(key, { ignoreNotFound: true }).catch(() => null);
  if (existing !== null && isBeingDeleted(existing)) {
    err.status.message = `object is being deleted: ${err.status.message ?? ''}`;
  }
}

/**
 * One attempt at the create, on `req.obj` itself: the caller hands the object over (a decoded body,
 * a controller's new object), so it is filled and prepared in place, not copied.
 */
async function createOnce<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  req: CreateRequest<T>,
): Promise<T> {
  const strategy = core.createStrategy;
  if (strategy === undefined) throw newMethodNotSupported(core.qualifiedResource, 'create');
  const obj = req.obj;
  const meta = metaOf(obj);
  fillObjectMetaSystemFields(meta, core.clock.now());
  if (needsNameGeneration(obj)) meta.name = core.nameGenerator.generateName(meta.generateName ?? '');

  beforeCreate(core, ctx, { obj, strategy });
  // The object is complete: now the admission the handler chain asks for. kube hands validating
  // admission a deep copy; Capstan's validating plugins only read, so they get the object itself.
  // A hook that finished at once returns nothing: no turn of the microtask queue for it.
  const validated = req.validate?.(ctx, obj);
  if (validated !== undefined) await validated;

  const name = meta.name ?? '';
  const key = core.keyFunc(ctx, name);
  const ttl = calculateTTL(core, obj, { existing: 0, update: false });
  try {
    return await core.storage.create(key, obj, { ttl, dryRun: isDryRun(req.options.dryRun) });
  } catch (err) {
    const translated = interpretStorageError(err, {
      verb: 'create',
      qualifiedResource: core.qualifiedResource,
      name,
    });
    if (!isStatusError(translated)) throw translated;
    const status = checkGeneratedNameError(core, translated, obj);
    if (status.reason === 'AlreadyExists') await annotateBeingDeleted(core, key, status);
    throw status;
  }
}

/**
 * Creates the object; with generateName, retries with new names while the generated one is taken.
 * A retry starts over from the prepared object with its name cleared (kube copies the object per
 * attempt; preparing twice gives what preparing once gives, and a taken name is rare).
 */
export async function createObject<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  req: CreateRequest<T>,
): Promise<T> {
  if (!needsNameGeneration(req.obj)) return createOnce(core, ctx, req);
  let last: unknown;
  for (let i = 0; i < maxNameGenerationCreateAttempts; i++) {
    try {
      return await createOnce(core, ctx, req);
    } catch (err) {
      if (!isStatusError(err) || err.reason !== 'AlreadyExists') throw err;
      last = err;
      metaOf(req.obj).name = '';
    }
  }
  throw last;
}
