// The steps every create takes before the write, in kube's order (rest.BeforeCreate in
// k8s.io/apiserver/pkg/registry/rest/create.go): namespace check → prepare → validate → common
// ObjectMeta validation → warnings → canonicalize.
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest, newInternalError } from '../../machinery/errors/index.js';
import { validateObjectMeta, validatePathSegmentName } from '../../machinery/validation/index.js';
import type { RequestContext } from '../rest/context.js';
import { ensureObjectNamespaceMatchesRequestNamespace, expectedNamespaceForScope } from '../rest/meta.js';
import type { CreateStrategy } from '../rest/strategy.js';
import { invalidFor, type StoreCore } from './store-core.js';

/** Sets apiVersion and kind from the store's kind when the object lacks them. */
export function ensureTypeMeta<T extends KubeObject>(core: StoreCore<T>, obj: T): void {
  const blank = core.newFunc();
  if ((obj.apiVersion ?? '') === '' && blank.apiVersion !== undefined) obj.apiVersion = blank.apiVersion;
  if ((obj.kind ?? '') === '' && blank.kind !== undefined) obj.kind = blank.kind;
}

/** Runs the create steps on `obj` (system fields already filled); throws the first failure as a Status. */
export function beforeCreate<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  opts: { obj: T; strategy: CreateStrategy<T> },
): void {
  const { obj, strategy } = opts;
  const meta = (obj.metadata ??= {});
  if ((meta.generateName ?? '') !== '' && (meta.name ?? '') === '') {
    throw newInternalError(new Error('metadata.name was not generated'));
  }
  ensureObjectNamespaceMatchesRequestNamespace(
    expectedNamespaceForScope(ctx.namespace, strategy.namespaceScoped),
    meta,
  );
  ensureTypeMeta(core, obj);

  strategy.prepareForCreate(ctx, obj);
  if (core.trackGeneration) meta.generation = 1;

  const errs = strategy.validate(ctx, obj);
  if (errs.length > 0) throw invalidFor(core, obj, errs);
  // Common ObjectMeta checks run after the kind's own, so the kind's more specific messages come first.
  const metaErrs = validateObjectMeta(meta, {
    requiresNamespace: strategy.namespaceScoped,
    validateName: validatePathSegmentName,
  });
  if (metaErrs.length > 0) throw invalidFor(core, obj, metaErrs);
  // kube's storage refuses this with a 500 (storage.ErrResourceVersionSetOnCreate); it is the
  // client's mistake, so Capstan answers 400 with the same text before the write.
  if ((meta.resourceVersion ?? '') !== '') {
    throw newBadRequest('resourceVersion should not be set on objects to be created');
  }

  for (const w of strategy.warningsOnCreate?.(ctx, obj) ?? []) ctx.addWarning(w);
  strategy.canonicalize?.(obj);
}
