// Deployment validation (ValidateDeployment, ValidateDeploymentUpdate, ValidateDeploymentStatusUpdate
// in pkg/apis/apps/validation/validation.go).
import type {
  Deployment,
  DeploymentSpec,
  DeploymentStrategy,
  DeploymentStatus,
} from '../../../api/apps/v1/deployment.js';
import {
  FieldError,
  validateNonnegativeField,
  type ErrorList,
  type FieldPath,
} from '../../../machinery/validation/index.js';
import {
  availableNotAboveReady,
  intOrPercentValue,
  isNotMoreThan100Percent,
  nonnegativeFields,
  notAboveReplicas,
  validateCollisionCountUpdate,
  validatePositiveIntOrPercent,
  validateSelectedTemplate,
  validateWorkload,
  validateWorkloadStatusUpdate,
  validateWorkloadUpdate,
} from '../workload/validation.js';

/** ValidateDeploymentStrategy. */
function validateStrategy(strategy: DeploymentStrategy | undefined, path: FieldPath): ErrorList {
  const type = strategy?.type ?? '';
  if (type === 'Recreate') {
    return strategy?.rollingUpdate === undefined
      ? []
      : [
          FieldError.forbidden(
            path.child('rollingUpdate'),
            "may not be specified when strategy `type` is 'Recreate'",
          ),
        ];
  }
  if (type !== 'RollingUpdate')
    return [FieldError.notSupported(path, strategy ?? {}, ['Recreate', 'RollingUpdate'])];
  const rolling = strategy?.rollingUpdate;
  const rp = path.child('rollingUpdate');
  if (rolling === undefined) return [FieldError.required(rp, 'this should be defaulted and never be nil')];
  const errs = [
    ...validatePositiveIntOrPercent(rolling.maxUnavailable, rp.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(rolling.maxSurge, rp.child('maxSurge')),
  ];
  if (intOrPercentValue(rolling.maxUnavailable) === 0 && intOrPercentValue(rolling.maxSurge) === 0)
    errs.push(
      FieldError.invalid(
        rp.child('maxUnavailable'),
        rolling.maxUnavailable ?? null,
        'may not be 0 when `maxSurge` is 0',
      ),
    );
  errs.push(...isNotMoreThan100Percent(rolling.maxUnavailable, rp.child('maxUnavailable')));
  return errs;
}

/** ValidateDeploymentSpec. */
export function validateDeploymentSpec(spec: DeploymentSpec, path: FieldPath): ErrorList {
  const errs = validateNonnegativeField(spec.replicas ?? 0, path.child('replicas'));
  errs.push(...validateSelectedTemplate(spec, path, { selectorFor: 'deployment', kindName: 'ReplicaSet' }));
  errs.push(...validateStrategy(spec.strategy, path.child('strategy')));
  errs.push(
    ...nonnegativeFields(
      { minReadySeconds: spec.minReadySeconds, revisionHistoryLimit: spec.revisionHistoryLimit },
      path,
    ),
  );
  const deadline = spec.progressDeadlineSeconds;
  if (deadline !== undefined) {
    errs.push(...validateNonnegativeField(deadline, path.child('progressDeadlineSeconds')));
    if (deadline <= (spec.minReadySeconds ?? 0))
      errs.push(
        FieldError.invalid(
          path.child('progressDeadlineSeconds'),
          deadline,
          'must be greater than minReadySeconds',
        ),
      );
  }
  return errs;
}

/** ValidateDeployment. */
export function validateDeployment(d: Deployment): ErrorList {
  return validateWorkload(d, validateDeploymentSpec);
}

/** ValidateDeploymentUpdate, and the apps/v1 rule that the selector never changes. */
export function validateDeploymentUpdate(d: Deployment, old: Deployment): ErrorList {
  return validateWorkloadUpdate(d, old, validateDeploymentSpec);
}

/** ValidateDeploymentStatus. */
export function validateDeploymentStatus(status: DeploymentStatus, path: FieldPath): ErrorList {
  const replicas = status.replicas ?? 0;
  const errs = nonnegativeFields(
    {
      observedGeneration: status.observedGeneration,
      replicas: status.replicas,
      updatedReplicas: status.updatedReplicas,
      readyReplicas: status.readyReplicas,
      availableReplicas: status.availableReplicas,
      unavailableReplicas: status.unavailableReplicas,
      terminatingReplicas: status.terminatingReplicas,
    },
    path,
  );
  if (status.collisionCount !== undefined)
    errs.push(...validateNonnegativeField(status.collisionCount, path.child('collisionCount')));
  errs.push(
    ...notAboveReplicas(
      {
        updatedReplicas: status.updatedReplicas,
        readyReplicas: status.readyReplicas,
        availableReplicas: status.availableReplicas,
      },
      replicas,
      path,
    ),
  );
  errs.push(...availableNotAboveReady(status, path, 'readyReplicas'));
  return errs;
}

/** ValidateDeploymentStatusUpdate: the status, and collisionCount never goes down. */
export function validateDeploymentStatusUpdate(d: Deployment, old: Deployment): ErrorList {
  return [
    ...validateWorkloadStatusUpdate(d, old, validateDeploymentStatus),
    ...validateCollisionCountUpdate(d.status, old.status),
  ];
}
