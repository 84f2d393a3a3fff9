// ReplicaSet validation (ValidateReplicaSet, ValidateReplicaSetUpdate, ValidateReplicaSetStatusUpdate
// in pkg/apis/apps/validation/validation.go) and its v1 defaults (SetDefaults_ReplicaSet).
import type { ReplicaSet, ReplicaSetSpec, ReplicaSetStatus } from '../../../api/apps/v1/replica-set.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import {
  validateCoreObjectMeta,
  validateCoreObjectMetaUpdate,
} from '../../core/namespace/finalizer-names.js';
import { setPodTemplateSpecDefaults } from '../../core/podtemplate/defaults.js';
import {
  nonnegativeFields,
  notAboveReplicas,
  specPath,
  statusPath,
  validateImmutableField,
  validateLongRunningTemplate,
  validateRequiredSelector,
  validateSelectorMatchesTemplate,
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
  const { errs: selectorErrs, selector } = validateRequiredSelector(
    spec.selector,
    path.child('selector'),
    'deployment',
  );
  errs.push(...selectorErrs);
  if (selector !== undefined) {
    const templatePath = path.child('template');
    errs.push(...validateSelectorMatchesTemplate(selector, spec.template, templatePath));
    errs.push(
      ...validateLongRunningTemplate({ template: spec.template, path: templatePath, kindName: 'ReplicaSet' }),
    );
  }
  return errs;
}

export function validateReplicaSet(rs: ReplicaSet): ErrorList {
  return [
    ...validateCoreObjectMeta(rs.metadata ?? {}, {
      requiresNamespace: true,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateReplicaSetSpec(rs.spec ?? {}, specPath),
  ];
}

/** ValidateReplicaSetUpdate, and the apps/v1 rule that the selector never changes. */
export function validateReplicaSetUpdate(rs: ReplicaSet, old: ReplicaSet): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(rs.metadata ?? {}, old.metadata ?? {}),
    ...validateReplicaSetSpec(rs.spec ?? {}, specPath),
    ...validateImmutableField(rs.spec?.selector, old.spec?.selector, specPath.child('selector')),
  ];
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
  if ((status.availableReplicas ?? 0) > (status.readyReplicas ?? 0))
    errs.push(
      FieldError.invalid(
        path.child('availableReplicas'),
        status.availableReplicas,
        'cannot be greater than readyReplicas',
      ),
    );
  return errs;
}

export function validateReplicaSetStatusUpdate(rs: ReplicaSet, old: ReplicaSet): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(rs.metadata ?? {}, old.metadata ?? {}),
    ...validateReplicaSetStatus(rs.status ?? {}, statusPath),
  ];
}
