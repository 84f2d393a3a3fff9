// HorizontalPodAutoscaler validation (pkg/apis/autoscaling/validation/validation.go), on the
// autoscaling/v2 form every version is stored in. The HPAScaleToZero feature gate is off, as in kube
// 1.33 by default: minReplicas 0 is refused unless the object already had it.
import {
  scalingPolicySelects,
  scalingPolicyTypes,
  type HorizontalPodAutoscaler,
  type HorizontalPodAutoscalerBehavior,
  type HPAScalingRules,
} from '../../../api/autoscaling/v2/types.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  validateNonnegativeField,
  validateObjectMeta,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCrossVersionObjectReference, validateMetrics } from './metrics-validation.js';

const maxPeriodSeconds = 1800;
const maxStabilizationWindowSeconds = 3600;

function validateScalingRules(rules: HPAScalingRules | undefined, path: FieldPath): ErrorList {
  if (rules === undefined) return [];
  const errs: ErrorList = [];
  const window = rules.stabilizationWindowSeconds;
  if (window !== undefined && window < 0)
    errs.push(
      FieldError.invalid(
        path.child('stabilizationWindowSeconds'),
        window,
        'must be greater than or equal to zero',
      ),
    );
  if (window !== undefined && window > maxStabilizationWindowSeconds)
    errs.push(
      FieldError.invalid(
        path.child('stabilizationWindowSeconds'),
        window,
        `must be less than or equal to ${String(maxStabilizationWindowSeconds)}`,
      ),
    );
  if (
    rules.selectPolicy !== undefined &&
    !(scalingPolicySelects as readonly string[]).includes(rules.selectPolicy)
  )
    errs.push(FieldError.notSupported(path.child('selectPolicy'), rules.selectPolicy, scalingPolicySelects));
  const policiesPath = path.child('policies');
  const policies = rules.policies ?? [];
  if (policies.length === 0) errs.push(FieldError.required(policiesPath, 'must specify at least one Policy'));
  policies.forEach((policy, i) => {
    const p = policiesPath.index(i);
    if (!(scalingPolicyTypes as readonly string[]).includes(policy.type))
      errs.push(FieldError.notSupported(p.child('type'), policy.type, scalingPolicyTypes));
    if (policy.value <= 0)
      errs.push(FieldError.invalid(p.child('value'), policy.value, 'must be greater than zero'));
    const period = policy.periodSeconds;
    if (period <= 0)
      errs.push(FieldError.invalid(p.child('periodSeconds'), period, 'must be greater than zero'));
    if (period > maxPeriodSeconds)
      errs.push(
        FieldError.invalid(
          p.child('periodSeconds'),
          period,
          `must be less than or equal to ${String(maxPeriodSeconds)}`,
        ),
      );
  });
  return errs;
}

function validateBehavior(behavior: HorizontalPodAutoscalerBehavior | undefined, path: FieldPath): ErrorList {
  if (behavior === undefined) return [];
  return [
    ...validateScalingRules(behavior.scaleUp, path.child('scaleUp')),
    ...validateScalingRules(behavior.scaleDown, path.child('scaleDown')),
  ];
}

/** validateHorizontalPodAutoscalerSpec. */
function validateSpec(hpa: HorizontalPodAutoscaler, minReplicasLowerBound: number): ErrorList {
  const path = FieldPath.of('spec');
  const spec = hpa.spec ?? ({} as Partial<NonNullable<HorizontalPodAutoscaler['spec']>>);
  const errs: ErrorList = [];
  const min = spec.minReplicas;
  const max = spec.maxReplicas ?? 0;
  if (min !== undefined && min < minReplicasLowerBound)
    errs.push(
      FieldError.invalid(
        path.child('minReplicas'),
        min,
        `must be greater than or equal to ${String(minReplicasLowerBound)}`,
      ),
    );
  if (max < 1) errs.push(FieldError.invalid(path.child('maxReplicas'), max, 'must be greater than 0'));
  if (min !== undefined && max < min)
    errs.push(
      FieldError.invalid(path.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'),
    );
  errs.push(
    ...validateCrossVersionObjectReference(
      spec.scaleTargetRef ?? { kind: '', name: '' },
      path.child('scaleTargetRef'),
    ),
    ...validateMetrics(spec.metrics ?? [], path.child('metrics'), min),
    ...validateBehavior(spec.behavior, path.child('behavior')),
  );
  return errs;
}

/** ValidateHorizontalPodAutoscaler: names are DNS subdomains (ValidateReplicationControllerName). */
export function validateHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler): ErrorList {
  return [
    ...validateObjectMeta(hpa.metadata ?? {}, { requiresNamespace: true, validateName: nameIsDNSSubdomain }),
    ...validateSpec(hpa, 1),
  ];
}

/** An object that already scales to zero may keep doing so. */
export function validateHorizontalPodAutoscalerUpdate(
  hpa: HorizontalPodAutoscaler,
  old: HorizontalPodAutoscaler,
): ErrorList {
  return validateSpec(hpa, old.spec?.minReplicas === 0 ? 0 : 1);
}

export function validateHorizontalPodAutoscalerStatusUpdate(hpa: HorizontalPodAutoscaler): ErrorList {
  const path = FieldPath.of('status');
  return [
    ...validateNonnegativeField(hpa.status?.currentReplicas ?? 0, path.child('currentReplicas')),
    ...validateNonnegativeField(hpa.status?.desiredReplicas ?? 0, path.child('desiredReplicas')),
  ];
}
