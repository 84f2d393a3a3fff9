// Namespace policy (pkg/registry/core/namespace/strategy.go) and validation (ValidateNamespace and
// friends in pkg/apis/core/validation/validation.go): the main resource keeps status and
// spec.finalizers, /status keeps spec, /finalize keeps status.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import {
  FieldError,
  FieldPath,
  validateNamespaceName,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  finalizerKubernetes,
  validateCoreObjectMeta,
  validateCoreObjectMetaUpdate,
  validateFinalizerName,
} from './finalizer-names.js';

/** v1.LabelMetadataName: every namespace carries its own name as this label. */
export const labelMetadataName = 'kubernetes.io/metadata.name';

/** ValidateNamespace. */
export function validateNamespace(ns: Namespace): ErrorList {
  const errs = validateCoreObjectMeta(ns.metadata ?? {}, {
    requiresNamespace: false,
    validateName: validateNamespaceName,
  });
  const path = FieldPath.of('spec', 'finalizers');
  for (const f of ns.spec?.finalizers ?? []) errs.push(...validateFinalizerName(f, path));
  return errs;
}

/** ValidateNamespaceStatusUpdate: the phase follows deletionTimestamp. */
export function validateNamespaceStatusUpdate(ns: Namespace, old: Namespace): ErrorList {
  const errs = validateCoreObjectMetaUpdate(ns.metadata ?? {}, old.metadata ?? {});
  const phase = ns.status?.phase ?? '';
  const path = FieldPath.of('status', 'Phase');
  if ((ns.metadata?.deletionTimestamp ?? '') === '') {
    if (phase !== 'Active')
      errs.push(FieldError.invalid(path, phase, "may only be 'Active' if `deletionTimestamp` is empty"));
  } else if (phase !== 'Terminating') {
    errs.push(
      FieldError.invalid(path, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"),
    );
  }
  return errs;
}

/** ValidateNamespaceFinalizeUpdate. */
export function validateNamespaceFinalizeUpdate(ns: Namespace, old: Namespace): ErrorList {
  const errs = validateCoreObjectMetaUpdate(ns.metadata ?? {}, old.metadata ?? {});
  const path = FieldPath.of('spec', 'finalizers');
  (ns.spec?.finalizers ?? []).forEach((f, i) => errs.push(...validateFinalizerName(f, path.index(i))));
  return errs;
}

/** Canonicalize: the name label, also for names generated after defaulting ran. */
function setNameLabel(ns: Namespace): void {
  const meta = (ns.metadata ??= {});
  meta.labels = { ...meta.labels, [labelMetadataName]: meta.name ?? '' };
}

export const namespaceStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (_ctx, ns) => {
    ns.status = { phase: 'Active' };
    // Required on create; later it may be removed (by the namespace controller, via /finalize).
    const finalizers = ns.spec?.finalizers ?? [];
    if (!finalizers.includes(finalizerKubernetes))
      ns.spec = { ...ns.spec, finalizers: [...finalizers, finalizerKubernetes] };
  },
  validate: (_ctx, ns) => validateNamespace(ns),
  warningsOnCreate: () => [],
  canonicalize: setNameLabel,
  prepareForUpdate: (_ctx, ns, old) => {
    ns.spec = { ...ns.spec };
    if (old.spec?.finalizers !== undefined) ns.spec.finalizers = old.spec.finalizers;
    else delete ns.spec.finalizers;
    if (old.status !== undefined) ns.status = old.status;
    else delete ns.status;
  },
  validateUpdate: (_ctx, ns, old) => [
    ...validateNamespace(ns),
    ...validateCoreObjectMetaUpdate(ns.metadata ?? {}, old.metadata ?? {}),
  ],
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<Namespace> & UpdateStrategy<Namespace>;

/** namespaces/status: takes the status, keeps the spec. */
export const namespaceStatusStrategy = {
  ...namespaceStrategy,
  prepareForUpdate: (_ctx, ns, old) => {
    if (old.spec !== undefined) ns.spec = old.spec;
    else delete ns.spec;
  },
  validateUpdate: (_ctx, ns, old) => validateNamespaceStatusUpdate(ns, old),
} satisfies UpdateStrategy<Namespace>;

/** namespaces/finalize: takes spec.finalizers, keeps the status. */
export const namespaceFinalizeStrategy = {
  ...namespaceStrategy,
  prepareForUpdate: (_ctx, ns, old) => {
    if (old.status !== undefined) ns.status = old.status;
    else delete ns.status;
  },
  validateUpdate: (_ctx, ns, old) => validateNamespaceFinalizeUpdate(ns, old),
} satisfies UpdateStrategy<Namespace>;

export const namespaceDeleteStrategy = {} satisfies DeleteStrategy<Namespace>;
