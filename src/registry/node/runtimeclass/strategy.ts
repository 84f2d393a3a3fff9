// RuntimeClass policy (pkg/registry/node/runtimeclass/strategy.go) and validation
// (ValidateRuntimeClass and ValidateRuntimeClassUpdate in pkg/apis/node/validation).
import type { RuntimeClass } from '../../../api/node/v1/runtime-class.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSLabel,
  validateLabels,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import { validateImmutableField } from '../../generic/validate-meta-update.js';
import { deprecatedNodeLabelMessage } from '../../core/node/deprecated-labels.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';

/** ValidateRuntimeClass: the handler is a DNS label (metadata with DNS-subdomain names, then the fields). */
export function validateRuntimeClass(rc: RuntimeClass): ErrorList {
  return [
    ...validateObjectMeta(rc.metadata ?? {}, { requiresNamespace: false, validateName: nameIsDNSSubdomain }),
    ...validateRuntimeClassFields(rc),
  ];
}

function validateRuntimeClassFields(rc: RuntimeClass): ErrorList {
  const handler = rc.handler;
  const errs = nameIsDNSLabel(handler, false).map((m) =>
    FieldError.invalid(FieldPath.of('handler'), handler, m),
  );
  const selector = rc.scheduling?.nodeSelector;
  if (selector !== undefined)
    errs.push(...validateLabels(selector, FieldPath.of('scheduling', 'nodeSelector')));
  return errs;
}

/** ValidateRuntimeClassUpdate: the handler is immutable. */
export function validateRuntimeClassUpdate(rc: RuntimeClass, old: RuntimeClass): ErrorList {
  return [
    ...validateRuntimeClass(rc),
    ...validateImmutableField(rc.handler, old.handler, FieldPath.of('handler')),
  ];
}

/** GetWarningsForRuntimeClass (pkg/api/node/util.go): retired node labels in the node selector. */
function runtimeClassWarnings(rc: RuntimeClass): string[] {
  const warnings: string[] = [];
  for (const key of Object.keys(rc.scheduling?.nodeSelector ?? {})) {
    const msg = deprecatedNodeLabelMessage(key);
    if (msg !== undefined) warnings.push(`scheduling.nodeSelector: ${msg}`);
  }
  return warnings;
}

export const runtimeClassStrategy = {
  namespaceScoped: false,
  // As kube's strategy: a PUT may create, and an update must name the resourceVersion it replaces.
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  prepareForCreate: (_ctx, rc) => {
    (rc as Partial<RuntimeClass>).handler ??= '';
  },
  validate: (_ctx, rc) => validateRuntimeClass(rc),
  warningsOnCreate: (_ctx, rc) => runtimeClassWarnings(rc),
  prepareForUpdate: (_ctx, rc) => {
    (rc as Partial<RuntimeClass>).handler ??= '';
  },
  validateUpdate: (_ctx, rc, old) => validateRuntimeClassUpdate(rc, old),
  warningsOnUpdate: (_ctx, rc) => runtimeClassWarnings(rc),
} satisfies CreateStrategy<RuntimeClass> & UpdateStrategy<RuntimeClass>;

export const runtimeClassDeleteStrategy = {} satisfies DeleteStrategy<RuntimeClass>;
