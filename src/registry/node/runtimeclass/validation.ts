// RuntimeClass validation as pkg/apis/node/validation/validation.go (1.33) has it: the handler, the
// pod overhead through the container resource checks, and the scheduling node selector and
// tolerations through the core validators.
import type { Toleration } from '../../../api/core/v1/pod.js';
import type { RuntimeClass } from '../../../api/node/v1/runtime-class.js';
import {
  FieldError,
  FieldPath,
  goQuote,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  omitValue,
  validateLabels,
  validateObjectMeta,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateResourceRequirements } from '../../core/pod/validation/resources.js';
import { validateTolerations } from '../../core/pod/validation/spec-fields.js';
import { validateImmutableField, validateObjectMetaUpdate } from '../../generic/validate-meta-update.js';

/**
 * A duplicate toleration as kube reports it: %#v of the internal struct, whose tolerationSeconds
 * pointer prints an address that differs on every run of kube.
 */
function duplicateToleration(path: FieldPath, t: Toleration): FieldError {
  const seconds = t.tolerationSeconds === undefined ? '(*int64)(nil)' : '(*int64)(0xc000000000)';
  const fields = [
    `Key:${goQuote(t.key ?? '')}`,
    `Operator:${goQuote(t.operator ?? '')}`,
    `Value:${goQuote(t.value ?? '')}`,
    `Effect:${goQuote(t.effect ?? '')}`,
    `TolerationSeconds:${seconds}`,
  ];
  return new FieldError({
    type: 'FieldValueDuplicate',
    field: path.toString(),
    badValue: omitValue,
    detail: `core.Toleration{${fields.join(', ')}}`,
  });
}

/**
 * validateTolerations of the node package: kube hands the core check a path one `tolerations`
 * deeper than the field (scheduling.tolerations.tolerations[i]), and reports a repeated
 * key/operator/value/effect at scheduling.tolerations[i].
 */
function validateSchedulingTolerations(tolerations: readonly Toleration[], path: FieldPath): ErrorList {
  const errs = validateTolerations(tolerations, path.child('tolerations'));
  const seen = new Set<string>();
  tolerations.forEach((t, i) => {
    const key = JSON.stringify([t.key ?? '', t.operator ?? '', t.value ?? '', t.effect ?? '']);
    if (seen.has(key)) errs.push(duplicateToleration(path.index(i), t));
    else seen.add(key);
  });
  return errs;
}

function validateScheduling(scheduling: NonNullable<RuntimeClass['scheduling']>, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (scheduling.nodeSelector !== undefined)
    errs.push(...validateLabels(scheduling.nodeSelector, path.child('nodeSelector')));
  const tolerations = (scheduling.tolerations ?? []) as readonly Toleration[];
  errs.push(...validateSchedulingTolerations(tolerations, path.child('tolerations')));
  return errs;
}

/**
 * ValidateRuntimeClass: metadata with DNS-subdomain names, a DNS-label handler, the overhead as
 * container limits (so its errors name overhead.limits[...]), then scheduling.
 */
export function validateRuntimeClass(rc: RuntimeClass): ErrorList {
  const errs = validateObjectMeta(rc.metadata ?? {}, {
    requiresNamespace: false,
    validateName: nameIsDNSSubdomain,
  });
  const handler = rc.handler;
  errs.push(
    ...nameIsDNSLabel(handler, false).map((m) => FieldError.invalid(FieldPath.of('handler'), handler, m)),
  );
  if (rc.overhead !== undefined) {
    const limits = rc.overhead.podFixed ?? {};
    errs.push(...validateResourceRequirements({ limits }, FieldPath.of('overhead')));
  }
  if (rc.scheduling !== undefined)
    errs.push(...validateScheduling(rc.scheduling, FieldPath.of('scheduling')));
  return errs;
}

/** ValidateRuntimeClassUpdate: the metadata against the stored object; the handler is immutable. */
export function validateRuntimeClassUpdate(rc: RuntimeClass, old: RuntimeClass): ErrorList {
  return [
    ...validateObjectMetaUpdate(rc.metadata ?? {}, old.metadata ?? {}),
    ...validateImmutableField(rc.handler, old.handler, FieldPath.of('handler')),
  ];
}
