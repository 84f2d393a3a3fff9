// RuntimeClass policy (pkg/registry/node/runtimeclass/strategy.go); validation in validation.ts.
import type { RuntimeClass } from '../../../api/node/v1/runtime-class.js';
import { deprecatedNodeLabelMessage } from '../../core/node/deprecated-labels.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateRuntimeClass, validateRuntimeClassUpdate } from './validation.js';

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
  // As kube's strategy: the object as on create, then the update's own checks.
  validateUpdate: (_ctx, rc, old) => [...validateRuntimeClass(rc), ...validateRuntimeClassUpdate(rc, old)],
  warningsOnUpdate: (_ctx, rc) => runtimeClassWarnings(rc),
} satisfies CreateStrategy<RuntimeClass> & UpdateStrategy<RuntimeClass>;

export const runtimeClassDeleteStrategy = {} satisfies DeleteStrategy<RuntimeClass>;
