// Checks the workload kinds share (pkg/apis/apps/validation/validation.go): selectors against
// templates, int-or-percent fields, immutable fields and the status counters.
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { LabelSelector } from '../../../api/meta/v1/label-selector.js';
import type { IntOrString } from '../../../api/util/int-or-string.js';
import { labelSelectorAsSelector, Selector, validateLabelSelector } from '../../../machinery/labels/index.js';
import {
  FieldError,
  FieldPath,
  regexError,
  validateNonnegativeField,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { validatePodTemplateSpec } from '../../core/podtemplate/validation.js';

export const selectorMismatchMsg = '`selector` does not match template `labels`';
const percentFmt = '[0-9]+%';
const percentRegexp = new RegExp(`^${percentFmt}$`);

/** ValidateImmutableField: `field is immutable` with the new value. */
export function validateImmutableField(value: unknown, old: unknown, path: FieldPath): ErrorList {
  return jsonEqual(value ?? null, old ?? null)
    ? []
    : [FieldError.invalid(path, value ?? null, 'field is immutable')];
}

/**
 * A required, non-empty selector (`empty selector is invalid for <what>`), and the Selector it
 * converts to: nothing for a missing one, undefined when it does not convert.
 */
export function validateRequiredSelector(
  ps: LabelSelector | undefined,
  path: FieldPath,
  what: string,
): { errs: ErrorList; selector: Selector | undefined } {
  if (ps === undefined) return { errs: [FieldError.required(path)], selector: Selector.nothing() };
  const errs = validateLabelSelector(ps, path);
  if (Object.keys(ps.matchLabels ?? {}).length + (ps.matchExpressions ?? []).length === 0)
    errs.push(FieldError.invalid(path, ps, `empty selector is invalid for ${what}`));
  const converted = labelSelectorAsSelector(ps);
  if (!converted.ok) {
    errs.push(FieldError.invalid(path, ps, 'invalid label selector'));
    return { errs, selector: undefined };
  }
  return { errs, selector: converted.selector };
}

/** The template's labels must be selected by a non-empty selector. */
export function validateSelectorMatchesTemplate(
  selector: Selector,
  template: PodTemplateSpec | undefined,
  path: FieldPath,
): ErrorList {
  if (selector.empty()) return [];
  const labels = template?.metadata?.labels ?? {};
  return selector.matches(labels)
    ? []
    : [
        FieldError.invalid(
          path.child('metadata', 'labels'),
          template?.metadata?.labels ?? null,
          selectorMismatchMsg,
        ),
      ];
}

export interface TemplateCheck {
  readonly template: PodTemplateSpec | undefined;
  readonly path: FieldPath;
  /** Names the kind in the activeDeadlineSeconds message (`ReplicaSet`, `StatefulSet`, `DaemonSet`). */
  readonly kindName: string;
  /** Statefulsets report the deadline as Forbidden, the others as Invalid. */
  readonly deadlineForbidden?: boolean;
}

/** The pod template of a long-running workload: valid, restartPolicy Always, no active deadline. */
export function validateLongRunningTemplate(check: TemplateCheck): ErrorList {
  const { template, path } = check;
  if (template === undefined) return [FieldError.required(path)];
  const errs = validatePodTemplateSpec(template, path);
  const restart = template.spec?.restartPolicy ?? '';
  if (restart !== 'Always')
    errs.push(FieldError.notSupported(path.child('spec', 'restartPolicy'), restart, ['Always']));
  const deadline = template.spec?.activeDeadlineSeconds;
  if (deadline !== undefined) {
    const deadlinePath = path.child('spec', 'activeDeadlineSeconds');
    const msg = `activeDeadlineSeconds in ${check.kindName} is not Supported`;
    errs.push(
      check.deadlineForbidden === true
        ? FieldError.forbidden(deadlinePath, msg)
        : FieldError.invalid(deadlinePath, deadline, msg),
    );
  }
  return errs;
}

/** ValidatePositiveIntOrPercent: a non-negative integer or a `N%` string. */
export function validatePositiveIntOrPercent(value: IntOrString | undefined, path: FieldPath): ErrorList {
  if (value === undefined) return [];
  if (typeof value === 'number') return validateNonnegativeField(value, path);
  if (percentRegexp.test(value)) return [];
  return [
    FieldError.invalid(
      path,
      value,
      regexError(
        "a valid percent string must be a numeric string followed by an ending '%'",
        percentFmt,
        '1%',
        '93%',
      ),
    ),
  ];
}

/** getIntOrPercentValue: the number, or the percentage without its sign (-1 when not a percentage). */
export function intOrPercentValue(value: IntOrString | undefined): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  if (!value.endsWith('%')) return -1;
  const n = Number.parseInt(value.slice(0, -1), 10);
  return Number.isNaN(n) ? -1 : n;
}

/** IsNotMoreThan100Percent. */
export function isNotMoreThan100Percent(value: IntOrString | undefined, path: FieldPath): ErrorList {
  if (typeof value !== 'string' || intOrPercentValue(value) <= 100) return [];
  return [FieldError.invalid(path, value, 'must not be greater than 100%')];
}

/** Non-negative optional counters, each at `path.<name>`. */
export function nonnegativeFields(
  values: Readonly<Record<string, number | undefined>>,
  path: FieldPath,
): ErrorList {
  return Object.entries(values).flatMap(([name, v]) =>
    v === undefined ? [] : validateNonnegativeField(v, path.child(name)),
  );
}

/** A status counter may not exceed status.replicas (`cannot be greater than status.replicas`). */
export function notAboveReplicas(
  values: Readonly<Record<string, number | undefined>>,
  replicas: number,
  path: FieldPath,
): ErrorList {
  return Object.entries(values).flatMap(([name, v]) =>
    v !== undefined && v > replicas
      ? [FieldError.invalid(path.child(name), v, 'cannot be greater than status.replicas')]
      : [],
  );
}

export const specPath = FieldPath.of('spec');
export const statusPath = FieldPath.of('status');
