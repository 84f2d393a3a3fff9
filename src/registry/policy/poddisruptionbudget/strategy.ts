// PodDisruptionBudget policy (pkg/registry/policy/poddisruptionbudget/strategy.go) and validation
// (pkg/apis/policy/validation/validation.go).
import {
  unhealthyPodEvictionPolicies,
  type PodDisruptionBudget,
  type PodDisruptionBudgetSpec,
  type PodDisruptionBudgetStatus,
} from '../../../api/policy/v1/pod-disruption-budget.js';
import { validateLabelSelector } from '../../../machinery/labels/validate-label-selector.js';
import {
  FieldError,
  FieldPath,
  validateNonnegativeField,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../apps/workload/validation.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';

/** ValidatePodDisruptionBudgetSpec. */
export function validatePodDisruptionBudgetSpec(spec: PodDisruptionBudgetSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(FieldError.invalid(path, spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const name of ['minAvailable', 'maxUnavailable'] as const) {
    const value = spec[name];
    if (value === undefined) continue;
    errs.push(
      ...validatePositiveIntOrPercent(value, path.child(name)),
      ...isNotMoreThan100Percent(value, path.child(name)),
    );
  }
  errs.push(...validateLabelSelector(spec.selector, path.child('selector')));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !(unhealthyPodEvictionPolicies as readonly string[]).includes(policy)) {
    errs.push(
      FieldError.notSupported(path.child('unhealthyPodEvictionPolicy'), policy, [
        'AlwaysAllow',
        'IfHealthyBudget',
      ]),
    );
  }
  return errs;
}

/** ValidatePodDisruptionBudget: the spec (metadata with DNS-subdomain names, then the fields). */
export function validatePodDisruptionBudget(pdb: PodDisruptionBudget): ErrorList {
  return [
    ...validateObjectMeta(pdb.metadata ?? {}, { requiresNamespace: true, validateName: nameIsDNSSubdomain }),
    ...validatePodDisruptionBudgetFields(pdb),
  ];
}

function validatePodDisruptionBudgetFields(pdb: PodDisruptionBudget): ErrorList {
  return validatePodDisruptionBudgetSpec(pdb.spec ?? {}, FieldPath.of('spec'));
}

/** ValidatePodDisruptionBudgetStatusUpdate: the counters are non-negative. */
export function validatePodDisruptionBudgetStatus(status: PodDisruptionBudgetStatus | undefined): ErrorList {
  if (status === undefined) return [];
  const path = FieldPath.of('status');
  return (['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const).flatMap(
    (name) => validateNonnegativeField(status[name], path.child(name)),
  );
}

const emptyStatus = (): PodDisruptionBudgetStatus => ({
  disruptionsAllowed: 0,
  currentHealthy: 0,
  desiredHealthy: 0,
  expectedPods: 0,
});

export const podDisruptionBudgetStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (_ctx, pdb) => {
    pdb.status = emptyStatus();
  },
  validate: (_ctx, pdb) => validatePodDisruptionBudget(pdb),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, pdb, old) => {
    if (old.status !== undefined) pdb.status = old.status;
    else delete pdb.status;
  },
  validateUpdate: (_ctx, pdb) => validatePodDisruptionBudget(pdb),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<PodDisruptionBudget> & UpdateStrategy<PodDisruptionBudget>;

/** poddisruptionbudgets/status: takes the status, keeps the spec. */
export const podDisruptionBudgetStatusStrategy = {
  ...podDisruptionBudgetStrategy,
  prepareForUpdate: (_ctx, pdb, old) => {
    if (old.spec !== undefined) pdb.spec = old.spec;
    else delete pdb.spec;
  },
  validateUpdate: (_ctx, pdb) => validatePodDisruptionBudgetStatus(pdb.status),
} satisfies UpdateStrategy<PodDisruptionBudget>;

export const podDisruptionBudgetDeleteStrategy = {} satisfies DeleteStrategy<PodDisruptionBudget>;
