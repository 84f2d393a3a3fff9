// PriorityClass policy (pkg/registry/scheduling/priorityclass/strategy.go) and validation
// (pkg/apis/scheduling/validation/validation.go, IsKnownSystemPriorityClass in pkg/apis/scheduling).
import {
  defaultPreemptionPolicy,
  preemptionPolicies,
  type PriorityClass,
} from '../../../api/scheduling/v1/priority-class.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateImmutableField } from '../../generic/validate-meta-update.js';
import {
  validateCoreObjectMeta,
  validateCoreObjectMetaUpdate,
} from '../../core/namespace/finalizer-names.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';

/** scheduling.SystemPriorityClassPrefix. */
export const systemPriorityClassPrefix = 'system-';
/** scheduling.HighestUserDefinablePriority. */
export const highestUserDefinablePriority = 1_000_000_000;

/** The classes kube-apiserver bootstraps (SystemPriorityClasses in pkg/apis/scheduling/v1/defaults). */
export const systemPriorityClasses: readonly PriorityClass[] = [
  {
    metadata: { name: 'system-node-critical' },
    value: 2_000_001_000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    metadata: { name: 'system-cluster-critical' },
    value: 2_000_000_000,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** IsKnownSystemPriorityClass: undefined when it is one, else why not. */
function unknownSystemClassReason(pc: PriorityClass): string | undefined {
  const name = pc.metadata?.name ?? '';
  const known = systemPriorityClasses.find((s) => s.metadata?.name === name);
  if (known === undefined) return `${name} is not a known system priority class`;
  if (known.value !== pc.value) return `value of ${name} PriorityClass must be ${String(known.value)}`;
  if ((known.globalDefault ?? false) !== (pc.globalDefault ?? false)) {
    return `globalDefault of ${name} PriorityClass must be ${String(known.globalDefault ?? false)}`;
  }
  return undefined;
}

/** ValidatePreemptionPolicy (pkg/apis/core/validation). */
function validatePreemptionPolicy(policy: string, path: FieldPath): ErrorList {
  if ((preemptionPolicies as readonly string[]).includes(policy)) return [];
  if (policy === '') return [FieldError.required(path, '')];
  return [FieldError.notSupported(path, policy, ['PreemptLowerPriority', 'Never'])];
}

/** ValidatePriorityClass. */
export function validatePriorityClass(pc: PriorityClass): ErrorList {
  const errs = validateCoreObjectMeta(pc.metadata ?? {}, {
    requiresNamespace: false,
    validateName: nameIsDNSSubdomain,
  });
  const name = pc.metadata?.name ?? '';
  if (name.startsWith(systemPriorityClassPrefix)) {
    const reason = unknownSystemClassReason(pc);
    if (reason !== undefined) {
      errs.push(
        FieldError.forbidden(
          FieldPath.of('metadata', 'name'),
          `priority class names with '${systemPriorityClassPrefix}' prefix are reserved for system use only. error: ${reason}`,
        ),
      );
    }
  } else if (pc.value > highestUserDefinablePriority) {
    errs.push(
      FieldError.forbidden(
        FieldPath.of('value'),
        `maximum allowed value of a user defined priority is ${String(highestUserDefinablePriority)}`,
      ),
    );
  }
  if (pc.preemptionPolicy !== undefined) {
    errs.push(...validatePreemptionPolicy(pc.preemptionPolicy, FieldPath.of('preemptionPolicy')));
  }
  return errs;
}

/** ValidatePriorityClassUpdate: value and preemptionPolicy are immutable. */
export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pc.metadata ?? {}, old.metadata ?? {});
  if (pc.value !== old.value) {
    errs.push(FieldError.forbidden(FieldPath.of('value'), 'may not be changed in an update.'));
  }
  errs.push(
    ...validateImmutableField(pc.preemptionPolicy, old.preemptionPolicy, FieldPath.of('preemptionPolicy')),
  );
  return errs;
}

// Objects that skip the decoder (internal callers) get the v1 defaults here.
function setDefaults(pc: PriorityClass): void {
  (pc as Partial<PriorityClass>).value ??= 0;
  pc.preemptionPolicy ??= defaultPreemptionPolicy;
}

export const priorityClassStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setDefaults,
  prepareForCreate: (_ctx, pc) => {
    setDefaults(pc);
  },
  validate: (_ctx, pc) => validatePriorityClass(pc),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, pc) => {
    setDefaults(pc);
  },
  validateUpdate: (_ctx, pc, old) => [...validatePriorityClass(pc), ...validatePriorityClassUpdate(pc, old)],
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<PriorityClass> & UpdateStrategy<PriorityClass>;

export const priorityClassDeleteStrategy = {} satisfies DeleteStrategy<PriorityClass>;
