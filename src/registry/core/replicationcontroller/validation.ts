// ReplicationController validation (ValidateReplicationController, ValidateReplicationControllerUpdate,
// ValidateReplicationControllerStatusUpdate and ValidatePodTemplateSpecForRC in
// pkg/apis/core/validation/validation.go).
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type {
  ReplicationController,
  ReplicationControllerSpec,
  ReplicationControllerStatus,
} from '../../../api/core/v1/replication-controller.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  validateNonnegativeField,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { validatePodTemplateSpec } from '../podtemplate/validation.js';

/** Whether every label of `selector` is in `labels` with the same value (an equality selector). */
function selectorMatches(
  selector: Readonly<Record<string, string>>,
  labels: Readonly<Record<string, string>>,
): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** ValidatePodTemplateSpecForRC: required, matched by the selector, restartPolicy Always, no deadline. */
export function validatePodTemplateSpecForRC(
  template: PodTemplateSpec | undefined,
  selector: Readonly<Record<string, string>>,
  path: FieldPath,
): ErrorList {
  if (template === undefined) return [FieldError.required(path)];
  const errs: ErrorList = [];
  const labels = template.metadata?.labels ?? {};
  if (Object.keys(selector).length > 0 && !selectorMatches(selector, labels))
    errs.push(
      FieldError.invalid(
        path.child('metadata', 'labels'),
        template.metadata?.labels ?? null,
        '`selector` does not match template `labels`',
      ),
    );
  errs.push(...validatePodTemplateSpec(template, path));
  const restart = template.spec?.restartPolicy ?? '';
  if (restart !== 'Always')
    errs.push(FieldError.notSupported(path.child('spec', 'restartPolicy'), restart, ['Always']));
  if (template.spec?.activeDeadlineSeconds !== undefined)
    errs.push(
      FieldError.forbidden(
        path.child('spec', 'activeDeadlineSeconds'),
        'activeDeadlineSeconds in ReplicationController is not Supported',
      ),
    );
  return errs;
}

/** ValidateReplicationControllerSpec. */
export function validateReplicationControllerSpec(
  spec: ReplicationControllerSpec,
  path: FieldPath,
): ErrorList {
  const selector = spec.selector ?? {};
  const errs = validateNonnegativeField(spec.minReadySeconds ?? 0, path.child('minReadySeconds'));
  if (Object.keys(selector).length === 0) errs.push(FieldError.required(path.child('selector')));
  errs.push(...validateNonnegativeField(spec.replicas ?? 0, path.child('replicas')));
  errs.push(...validatePodTemplateSpecForRC(spec.template, selector, path.child('template')));
  return errs;
}

/** ValidateReplicationController. */
export function validateReplicationController(rc: ReplicationController): ErrorList {
  return [
    ...validateCoreObjectMeta(rc.metadata ?? {}, {
      requiresNamespace: true,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateReplicationControllerSpec(rc.spec ?? {}, FieldPath.of('spec')),
  ];
}

/** The strategy's ValidateUpdate: the object as on create, then the update rules (messages once). */
export function validateReplicationControllerUpdate(
  rc: ReplicationController,
  old: ReplicationController,
): ErrorList {
  return [
    ...validateReplicationController(rc),
    ...validateCoreObjectMetaUpdate(rc.metadata ?? {}, old.metadata ?? {}),
    ...validateReplicationControllerSpec(rc.spec ?? {}, FieldPath.of('spec')),
  ];
}

/** ValidateReplicationControllerStatus. */
export function validateReplicationControllerStatus(
  status: ReplicationControllerStatus,
  path: FieldPath,
): ErrorList {
  const replicas = status.replicas;
  const fully = status.fullyLabeledReplicas ?? 0;
  const ready = status.readyReplicas ?? 0;
  const available = status.availableReplicas ?? 0;
  const errs = [
    ...validateNonnegativeField(replicas, path.child('replicas')),
    ...validateNonnegativeField(fully, path.child('fullyLabeledReplicas')),
    ...validateNonnegativeField(ready, path.child('readyReplicas')),
    ...validateNonnegativeField(available, path.child('availableReplicas')),
    ...validateNonnegativeField(status.observedGeneration ?? 0, path.child('observedGeneration')),
  ];
  const msg = 'cannot be greater than status.replicas';
  if (fully > replicas) errs.push(FieldError.invalid(path.child('fullyLabeledReplicas'), fully, msg));
  if (ready > replicas) errs.push(FieldError.invalid(path.child('readyReplicas'), ready, msg));
  if (available > replicas) errs.push(FieldError.invalid(path.child('availableReplicas'), available, msg));
  if (available > ready)
    errs.push(
      FieldError.invalid(path.child('availableReplicas'), available, 'cannot be greater than readyReplicas'),
    );
  return errs;
}

/** ValidateReplicationControllerStatusUpdate. */
export function validateReplicationControllerStatusUpdate(
  rc: ReplicationController,
  old: ReplicationController,
): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(rc.metadata ?? {}, old.metadata ?? {}),
    ...validateReplicationControllerStatus(rc.status ?? { replicas: 0 }, FieldPath.of('status')),
  ];
}
