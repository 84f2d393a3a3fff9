// The steps every update takes before the write, in kube's order (rest.BeforeUpdate in
// k8s.io/apiserver/pkg/registry/rest/update.go): namespace check → keep generation → prepare →
// carry over system fields → common and kind validation → warnings → canonicalize.
import type { KubeObject, ObjectMeta } from '../../api/meta.js';
import { validateObjectMeta, validatePathSegmentName } from '../../machinery/validation/index.js';
import type { RequestContext } from '../rest/context.js';
import type { UpdateStrategy } from '../rest/strategy.js';
import { ensureObjectNamespaceMatchesRequestNamespace, expectedNamespaceForScope } from '../rest/meta.js';
import { ensureTypeMeta } from './before-create.js';
import { shareUnchangedContent } from './object-meta.js';
import { invalidFor, type StoreCore } from './store-core.js';
import { validateObjectMetaUpdate } from './validate-meta-update.js';

/** Fields an update may not set or change: taken from the stored object. */
function carryOverSystemFields(meta: ObjectMeta, old: ObjectMeta): void {
  if ((meta.uid ?? '') === '' && old.uid !== undefined) meta.uid = old.uid;
  if (old.creationTimestamp !== undefined && old.creationTimestamp !== '')
    meta.creationTimestamp = old.creationTimestamp;
  if (old.deletionTimestamp !== undefined && old.deletionTimestamp !== '')
    meta.deletionTimestamp = old.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  }
}

/** Runs the update steps on `obj` against the stored `old`; throws the first failure as a Status. */
export function beforeUpdate<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  opts: { obj: T; old: T; strategy: UpdateStrategy<T> },
): void {
  const { obj, old, strategy } = opts;
  const meta = (obj.metadata ??= {});
  const oldMeta = old.metadata ?? {};
  ensureObjectNamespaceMatchesRequestNamespace(
    expectedNamespaceForScope(ctx.namespace, strategy.namespaceScoped),
    meta,
  );
  ensureTypeMeta(core, obj);
  // Requests cannot set the generation; only a change of the object's content moves it.
  if (oldMeta.generation === undefined) delete meta.generation;
  else meta.generation = oldMeta.generation;

  strategy.prepareForUpdate(ctx, obj, old);
  carryOverSystemFields(meta, oldMeta);
  if (shareUnchangedContent(obj, old) && core.trackGeneration && strategy.keepsGeneration !== true)
    meta.generation = (oldMeta.generation ?? 0) + 1;

  const errs = [
    ...validateObjectMeta(meta, {
      requiresNamespace: strategy.namespaceScoped,
      validateName: validatePathSegmentName,
    }),
    ...validateObjectMetaUpdate(meta, oldMeta),
    ...strategy.validateUpdate(ctx, obj, old),
  ];
  if (errs.length > 0) throw invalidFor(core, obj, errs);

  for (const w of strategy.warningsOnUpdate?.(ctx, obj, old) ?? []) ctx.addWarning(w);
  strategy.canonicalize?.(obj);
}
