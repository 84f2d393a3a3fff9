// Namespace deletion (REST.Delete in pkg/registry/core/namespace/storage/storage.go): the first
// delete only marks the namespace Terminating; the namespace controller empties it and clears
// spec.finalizers through /finalize, and then the namespace goes. Until that controller exists, a
// namespace stays Terminating until something finalizes it.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { KubeObject, Preconditions } from '../../../api/meta.js';
import { isStatusError, newConflict, newInternalError } from '../../../machinery/errors/index.js';
import { finalizerDeleteDependents, finalizerOrphanDependents } from '../../generic/gc-finalizers.js';
import { nowTimestamp } from '../../generic/object-meta.js';
import type { Store } from '../../generic/store.js';
import { interpretStorageError } from '../../generic/storage-errors.js';
import type { ValidateObjectFunc } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import { isDryRun, type DeleteOptions } from '../../rest/options.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';

const namespacesResource = { group: '', resource: 'namespaces' };

function shouldHaveOrphanFinalizer(options: DeleteOptions, has: boolean): boolean {
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Orphan';
  return has;
}

function shouldHaveDeleteDependentsFinalizer(options: DeleteOptions, has: boolean): boolean {
  if (options.orphanDependents !== undefined) return !options.orphanDependents;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Foreground';
  return has;
}

/** The metadata.finalizers the delete options ask for; unchanged when they ask nothing new. */
function gcFinalizers(current: readonly string[], options: DeleteOptions): string[] {
  const want: [string, boolean][] = [
    [
      finalizerOrphanDependents,
      shouldHaveOrphanFinalizer(options, current.includes(finalizerOrphanDependents)),
    ],
    [
      finalizerDeleteDependents,
      shouldHaveDeleteDependentsFinalizer(options, current.includes(finalizerDeleteDependents)),
    ],
  ];
  let next = [...current];
  for (const [finalizer, shouldHave] of want) {
    if (shouldHave && !next.includes(finalizer)) next.push(finalizer);
    if (!shouldHave) next = next.filter((f) => f !== finalizer);
  }
  return next;
}

/** Checks the preconditions against the namespace read; the uid one is always there afterwards. */
function checkPreconditions(ns: Namespace, name: string, options: DeleteOptions): Preconditions {
  const uid = ns.metadata?.uid ?? '';
  const rv = ns.metadata?.resourceVersion ?? '';
  const pre = options.preconditions ?? {};
  if (pre.uid !== undefined && pre.uid !== uid) {
    throw newConflict(
      namespacesResource,
      name,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv) {
    throw newConflict(
      namespacesResource,
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${rv}`,
    );
  }
  return { uid, ...(pre.resourceVersion !== undefined ? { resourceVersion: pre.resourceVersion } : {}) };
}

async function markTerminating(
  store: Store<Namespace>,
  ctx: RequestContext,
  args: { name: string; options: DeleteOptions; preconditions: Preconditions; validate: ValidateObjectFunc },
): Promise<Namespace> {
  const { name, options } = args;
  const core = store.core;
  try {
    return await core.storage.guaranteedUpdate(core.keyFunc(ctx, name), {
      preconditions: args.preconditions,
      dryRun: isDryRun(options.dryRun),
      tryUpdate: async (existing) => {
        if (existing === null) throw new Error('expected a namespace, got nothing');
        await args.validate(ctx, existing);
        const meta = (existing.metadata ??= {});
        if ((meta.deletionTimestamp ?? '') === '') meta.deletionTimestamp = nowTimestamp(core.clock.now());
        existing.status = { ...existing.status, phase: 'Terminating' };
        const current = meta.finalizers ?? [];
        const next = gcFinalizers(current, options);
        if (next.length !== current.length || next.some((f, i) => f !== current[i])) meta.finalizers = next;
        return existing;
      },
    });
  } catch (err) {
    // kube turns whatever is not a Status into an InternalError here.
    const status = interpretStorageError(err, {
      verb: 'update',
      qualifiedResource: namespacesResource,
      name,
    });
    throw isStatusError(status) ? status : newInternalError(status);
  }
}

/** REST.Delete for namespaces; `deleted` is true only for the final removal. */
export async function deleteNamespace(
  store: Store<Namespace>,
  ctx: RequestContext,
  args: { name: string; options: DeleteOptions; validate?: ValidateObjectFunc },
): Promise<{ object: KubeObject; deleted: boolean }> {
  const { name } = args;
  const ns = await store.get(ctx, name, {});
  const options = deepCopyJSON(args.options);
  const preconditions = checkPreconditions(ns, name, options);
  options.preconditions = preconditions;
  const validate = args.validate ?? (() => undefined);
  if ((ns.metadata?.deletionTimestamp ?? '') === '') {
    return {
      object: await markTerminating(store, ctx, { name, options, preconditions, validate }),
      deleted: false,
    };
  }
  // Final removal waits until the namespace controller has emptied spec.finalizers.
  if ((ns.spec?.finalizers ?? []).length > 0) return { object: ns, deleted: false };
  return store.delete(ctx, name, { options, validate });
}
