// ReplicaSet validation (ValidateReplicaSet, ValidateReplicaSetUpdate, ValidateReplicaSetStatusUpdate
// in pkg/apis/apps/validation/validation.go) and its v1 defaults (SetDefaults_ReplicaSet).
import type { ReplicaSet, ReplicaSetSpec, ReplicaSetStatus } from '../../../api/apps/v1/replica-set.js';
import type { FieldPath, ErrorList } from '../../../machinery/validation/index.js';
import { setPodTemplateSpecDefaults } from '../../core/podtemplate/defaults.js';
import {
  availableNotAboveReady,
  nonnegativeFields,
  notAboveReplicas,
  validateSelectedTemplate,
  validateWorkload,
  validateWorkloadStatusUpdate,
  validateWorkloadUpdate,
} from '../workload/validation.js';

/** Fills the defaults in place: one replica, and the template's pod defaults. */
export function setReplicaSetDefaults(rs: ReplicaSet): void {
  const spec = (rs.spec ??= {});
  spec.replicas ??= 1;
  setPodTemplateSpecDefaults((spec.template ??= {}));
}

/** ValidateReplicaSetSpec (its empty-selector text says deployment, as kube's does). */
export function validateReplicaSetSpec(spec: ReplicaSetSpec, path: FieldPath): ErrorList {
  const errs = nonnegativeFields(
    { replicas: spec.replicas ?? 0, minReadySeconds: spec.minReadySeconds ?? 0 },
    path,
  );
  errs.push(...validateSelectedTemplate(spec, path, { selectorFor: 'deployment', kindName: 'ReplicaSet' }));
  return errs;
}

export function validateReplicaSet(rs: ReplicaSet): ErrorList {
  return validateWorkload(rs, validateReplicaSetSpec);
}

/** ValidateReplicaSetUpdate, and the apps/v1 rule that the selector never changes. */
export function validateReplicaSetUpdate(rs: ReplicaSet, old: ReplicaSet): ErrorList {
  return validateWorkloadUpdate(rs, old, validateReplicaSetSpec);
}

/** ValidateReplicaSetStatus. */
export function validateReplicaSetStatus(status: ReplicaSetStatus, path: FieldPath): ErrorList {
  const replicas = status.replicas ?? 0;
  const errs = nonnegativeFields(
    {
      replicas,
      fullyLabeledReplicas: status.fullyLabeledReplicas,
      readyReplicas: status.readyReplicas,
      availableReplicas: status.availableReplicas,
      observedGeneration: status.observedGeneration,
    },
    path,
  );
  errs.push(
    ...notAboveReplicas(
      {
        fullyLabeledReplicas: status.fullyLabeledReplicas,
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

export function validateReplicaSetStatusUpdate(rs: ReplicaSet, old: ReplicaSet): ErrorList {
  return validateWorkloadStatusUpdate(rs, old, validateReplicaSetStatus);
}
