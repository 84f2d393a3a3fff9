// DaemonSet validation (ValidateDaemonSet, ValidateDaemonSetUpdate, ValidateDaemonSetStatusUpdate in
// pkg/apis/apps/validation/validation.go) and its v1 defaults (SetDefaults_DaemonSet).
import type {
  DaemonSet,
  DaemonSetSpec,
  DaemonSetStatus,
  DaemonSetUpdateStrategy,
} from '../../../api/apps/v1/daemon-set.js';
import { labelSelectorAsSelector, validateLabelSelector } from '../../../machinery/labels/index.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../machinery/validation/index.js';
import { setPodTemplateSpecDefaults } from '../../core/podtemplate/defaults.js';
import {
  intOrPercentValue,
  isNotMoreThan100Percent,
  nonnegativeFields,
  validateCollisionCountUpdate,
  validateLongRunningTemplate,
  validatePositiveIntOrPercent,
  validateSelectorMatchesTemplate,
  validateWorkload,
  validateWorkloadStatusUpdate,
  validateWorkloadUpdate,
} from '../workload/validation.js';

/** Fills the defaults in place: RollingUpdate with maxUnavailable 1 and maxSurge 0, history 10. */
export function setDaemonSetDefaults(ds: DaemonSet): void {
  const spec = (ds.spec ??= {});
  const strategy = (spec.updateStrategy ??= {});
  if ((strategy.type ?? '') === '') strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rolling = (strategy.rollingUpdate ??= {});
    rolling.maxUnavailable ??= 1;
    rolling.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  setPodTemplateSpecDefaults((spec.template ??= {}));
}

/** ValidateDaemonSetUpdateStrategy and ValidateRollingUpdateDaemonSet. */
function validateUpdateStrategy(strategy: DaemonSetUpdateStrategy | undefined, path: FieldPath): ErrorList {
  const type = strategy?.type ?? '';
  if (type === 'OnDelete') return [];
  if (type !== 'RollingUpdate')
    return [FieldError.notSupported(path, strategy ?? {}, ['RollingUpdate', 'OnDelete'])];
  const rolling = strategy?.rollingUpdate;
  const rp = path.child('rollingUpdate');
  if (rolling === undefined) return [FieldError.required(rp)];
  const errs = [
    ...validatePositiveIntOrPercent(rolling.maxUnavailable, rp.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(rolling.maxSurge, rp.child('maxSurge')),
    ...isNotMoreThan100Percent(rolling.maxUnavailable, rp.child('maxUnavailable')),
    ...isNotMoreThan100Percent(rolling.maxSurge, rp.child('maxSurge')),
  ];
  const hasUnavailable = intOrPercentValue(rolling.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(rolling.maxSurge) !== 0;
  if (hasUnavailable && hasSurge)
    errs.push(
      FieldError.invalid(
        rp.child('maxSurge'),
        rolling.maxSurge ?? null,
        'may not be set when maxUnavailable is non-zero',
      ),
    );
  else if (!hasUnavailable && !hasSurge)
    errs.push(FieldError.required(rp.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  return errs;
}

/** ValidateDaemonSetSpec. */
export function validateDaemonSetSpec(spec: DaemonSetSpec, path: FieldPath): ErrorList {
  const selectorPath = path.child('selector');
  const errs = validateLabelSelector(spec.selector, selectorPath);
  const converted = labelSelectorAsSelector(spec.selector);
  const templatePath = path.child('template');
  if (converted.ok)
    errs.push(...validateSelectorMatchesTemplate(converted.selector, spec.template, templatePath));
  const ps = spec.selector;
  if (ps !== undefined && Object.keys(ps.matchLabels ?? {}).length + (ps.matchExpressions ?? []).length === 0)
    errs.push(FieldError.invalid(selectorPath, ps, 'empty selector is invalid for daemonset'));
  errs.push(
    ...validateLongRunningTemplate({ template: spec.template, path: templatePath, kindName: 'DaemonSet' }),
  );
  errs.push(...nonnegativeFields({ minReadySeconds: spec.minReadySeconds ?? 0 }, path));
  errs.push(...validateUpdateStrategy(spec.updateStrategy, path.child('updateStrategy')));
  errs.push(...nonnegativeFields({ revisionHistoryLimit: spec.revisionHistoryLimit }, path));
  return errs;
}

export function validateDaemonSet(ds: DaemonSet): ErrorList {
  return validateWorkload(ds, validateDaemonSetSpec);
}

/** ValidateDaemonSetUpdate, and the apps/v1 rule that the selector never changes. */
export function validateDaemonSetUpdate(ds: DaemonSet, old: DaemonSet): ErrorList {
  return validateWorkloadUpdate(ds, old, validateDaemonSetSpec);
}

/** ValidateDaemonSetStatus. */
export function validateDaemonSetStatus(
  status: Partial<DaemonSetStatus> | undefined,
  path: FieldPath,
): ErrorList {
  return nonnegativeFields(
    {
      currentNumberScheduled: status?.currentNumberScheduled ?? 0,
      numberMisscheduled: status?.numberMisscheduled ?? 0,
      desiredNumberScheduled: status?.desiredNumberScheduled ?? 0,
      numberReady: status?.numberReady ?? 0,
      observedGeneration: status?.observedGeneration,
      updatedNumberScheduled: status?.updatedNumberScheduled,
      numberAvailable: status?.numberAvailable,
      numberUnavailable: status?.numberUnavailable,
      collisionCount: status?.collisionCount,
    },
    path,
  );
}

export function validateDaemonSetStatusUpdate(ds: DaemonSet, old: DaemonSet): ErrorList {
  return [
    ...validateWorkloadStatusUpdate(ds, old, validateDaemonSetStatus),
    ...validateCollisionCountUpdate(ds.status, old.status),
  ];
}
