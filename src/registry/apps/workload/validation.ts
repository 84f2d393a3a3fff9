// Checks the workload kinds share (pkg/apis/apps/validation/validation.go): selectors against
// templates, int-or-percent fields, immutable fields and the status counters.
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { LabelSelector } from '../../../api/meta/v1/label-selector.js';
import type { ObjectMeta } from '../../../api/meta.js';
import type { IntOrString } from '../../../api/util/int-or-string.js';
import { labelSelectorAsSelector, Selector, validateLabelSelector } from '../../../machinery/labels/index.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  regexError,
  validateNonnegativeField,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import {
  validateCoreObjectMeta,
  validateCoreObjectMetaUpdate,
} from '../../core/namespace/finalizer-names.js';
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

/** The metadata of a namespaced object whose name is a DNS subdomain (the apps and batch kinds). */
export function validateNamespacedMeta(meta: ObjectMeta | undefined): ErrorList {
  return validateCoreObjectMeta(meta ?? {}, { requiresNamespace: true, validateName: nameIsDNSSubdomain });
}

/** A workload object as the shared checks see it. */
export interface WorkloadObject<Spec, Status> {
  metadata?: ObjectMeta;
  spec?: Spec;
  status?: Status;
}

type PartValidator<Part> = (part: Part, path: FieldPath) => ErrorList;

/** ValidateX for a workload kind: its metadata, then its spec. */
export function validateWorkload<Spec>(
  obj: WorkloadObject<Spec, unknown>,
  validateSpec: PartValidator<Spec | Record<string, never>>,
): ErrorList {
  return [...validateNamespacedMeta(obj.metadata), ...validateSpec(obj.spec ?? {}, specPath)];
}

/** ValidateXUpdate for a workload kind, and the apps/v1 rule that the selector never changes. */
export function validateWorkloadUpdate<Spec extends { selector?: LabelSelector }>(
  obj: WorkloadObject<Spec, unknown>,
  old: WorkloadObject<Spec, unknown>,
  validateSpec: PartValidator<Spec | Record<string, never>>,
): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}),
    ...validateSpec(obj.spec ?? {}, specPath),
    ...validateImmutableField(obj.spec?.selector, old.spec?.selector, specPath.child('selector')),
  ];
}

/** ValidateXStatusUpdate for a workload kind: the metadata update, then the status. */
export function validateWorkloadStatusUpdate<Status>(
  obj: WorkloadObject<unknown, Status>,
  old: WorkloadObject<unknown, Status>,
  validateStatus: PartValidator<Status | Record<string, never>>,
): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}),
    ...validateStatus(obj.status ?? {}, statusPath),
  ];
}

/** status.collisionCount never goes down (`cannot be decremented`). */
export function validateCollisionCountUpdate(
  status: { collisionCount?: number } | undefined,
  old: { collisionCount?: number } | undefined,
): ErrorList {
  const prior = old?.collisionCount;
  const next = status?.collisionCount;
  return prior !== undefined && (next === undefined || next < prior)
    ? [FieldError.invalid(statusPath.child('collisionCount'), next ?? null, 'cannot be decremented')]
    : [];
}

/** availableReplicas may not exceed readyReplicas; `readyName` is how kind's message names the latter. */
export function availableNotAboveReady(
  status: { availableReplicas?: number; readyReplicas?: number },
  path: FieldPath,
  readyName: 'readyReplicas' | 'status.readyReplicas',
): ErrorList {
  return (status.availableReplicas ?? 0) > (status.readyReplicas ?? 0)
    ? [
        FieldError.invalid(
          path.child('availableReplicas'),
          status.availableReplicas,
          `cannot be greater than ${readyName}`,
        ),
      ]
    : [];
}

export interface SelectedTemplateCheck {
  /** Names the kind in the empty-selector message (`deployment`, `statefulset`). */
  readonly selectorFor: string;
  /** Names the kind in the activeDeadlineSeconds message. */
  readonly kindName: string;
  readonly deadlineForbidden?: boolean;
}

/**
 * A required selector, and, when it converts, a long-running pod template whose labels it selects
 * (the spec.selector and spec.template checks of ReplicaSet, Deployment and StatefulSet).
 */
export function validateSelectedTemplate(
  spec: { selector?: LabelSelector; template?: PodTemplateSpec },
  path: FieldPath,
  check: SelectedTemplateCheck,
): ErrorList {
  const { selectorFor, ...templateCheck } = check;
  const { errs, selector } = validateRequiredSelector(spec.selector, path.child('selector'), selectorFor);
  if (selector !== undefined) {
    const templatePath = path.child('template');
    errs.push(...validateSelectorMatchesTemplate(selector, spec.template, templatePath));
    errs.push(
      ...validateLongRunningTemplate({ ...templateCheck, template: spec.template, path: templatePath }),
    );
  }
  return errs;
}
