// Node validation: ValidateNode, ValidateNodeUpdate and validateNodeTaints
// (pkg/apis/core/validation/validation.go).
import type { Node, Taint } from '../../../api/core/v1/node.js';
import {
  FieldError,
  FieldPath,
  isValidLabelValue,
  nameIsDNSSubdomain,
  validateLabelName,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { quantityOf, quantitySign } from '../pod/quantity.js';
import { cidrFamily, isValidCIDRForLegacyField } from '../../networking/ip-validation.js';

export const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

const podCIDRChange = 'node updates may not change podCIDR except from "" to valid';
const providerIDChange = 'node updates may not change providerID except from "" to valid';

/** validateTaintEffect with allowEmpty false. */
function validateTaintEffect(effect: string, path: FieldPath): ErrorList {
  if (effect === '') return [FieldError.required(path)];
  return (taintEffects as readonly string[]).includes(effect)
    ? []
    : [FieldError.notSupported(path, effect, taintEffects)];
}

/** The internal Taint as Go's JSON renders it in a Duplicate error. */
function taintValue(t: Taint): Record<string, unknown> {
  return {
    key: t.key,
    ...(t.value !== undefined && t.value !== '' ? { value: t.value } : {}),
    effect: t.effect,
    ...(t.timeAdded !== undefined ? { timeAdded: t.timeAdded } : {}),
  };
}

/** validateNodeTaints: qualified keys, label values, known effects, unique by key and effect. */
export function validateNodeTaints(taints: readonly Taint[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const seen = new Map<string, Set<string>>();
  taints.forEach((taint, i) => {
    const idx = path.index(i);
    errs.push(...validateLabelName(taint.key, idx.child('key')));
    const valueErrs = isValidLabelValue(taint.value ?? '');
    if (valueErrs.length > 0)
      errs.push(FieldError.invalid(idx.child('value'), taint.value ?? '', valueErrs.join(';')));
    errs.push(...validateTaintEffect(taint.effect, idx.child('effect')));
    const keys = seen.get(taint.effect) ?? new Set<string>();
    if (keys.has(taint.key)) {
      const detail = 'taints must be unique by key and effect pair';
      errs.push(
        new FieldError({
          type: 'FieldValueDuplicate',
          field: idx.toString(),
          badValue: taintValue(taint),
          detail,
        }),
      );
      return;
    }
    keys.add(taint.key);
    seen.set(taint.effect, keys);
  });
  return errs;
}

/**
 * The podCIDRs part of ValidateNode: each a legacy CIDR field (netutils.ParseCIDRSloppy reads it);
 * more than one only as one of each family (netutils.IsDualStackCIDRStrings, whose failure to parse
 * kube reports as an internal error too).
 */
function validatePodCIDRs(cidrs: readonly string[]): ErrorList {
  const path = FieldPath.of('spec', 'podCIDRs');
  const errs = cidrs.flatMap((c, i) => isValidCIDRForLegacyField(path.index(i), c));
  if (cidrs.length > 1) {
    const families = cidrs.map(cidrFamily);
    const unparsed = families.indexOf('');
    if (unparsed >= 0)
      errs.push(
        FieldError.internal(
          path,
          `invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[${String(unparsed)}]: <nil> (invalid CIDR address: ${cidrs[unparsed] ?? ''})`,
        ),
      );
    const dualStack = unparsed < 0 && families.includes('IPv4') && families.includes('IPv6');
    if (!dualStack || cidrs.length > 2)
      errs.push(FieldError.invalid(path, cidrs, 'may specify no more than one CIDR for each IP family'));
  }
  return errs;
}

/** ValidateNodeResources: capacity and allocatable hold quantities. */
function validateNodeResources(node: Node): ErrorList {
  const errs: ErrorList = [];
  for (const field of ['capacity', 'allocatable'] as const) {
    for (const [name, q] of Object.entries(node.status?.[field] ?? {})) {
      const path = FieldPath.of('status', field).key(name);
      const value = quantityOf(q);
      if (value === undefined) errs.push(FieldError.invalid(path, q, 'must be a valid resource quantity'));
      else if (quantitySign(value) < 0)
        errs.push(FieldError.invalid(path, q, 'must be greater than or equal to 0'));
    }
  }
  return errs;
}

/** ValidateNode. Taint paths start at metadata, as kube's do. */
export function validateNode(node: Node): ErrorList {
  const meta = FieldPath.of('metadata');
  const errs = validateCoreObjectMeta(node.metadata ?? {}, {
    requiresNamespace: false,
    validateName: nameIsDNSSubdomain,
  });
  const taints = node.spec?.taints ?? [];
  if (taints.length > 0) errs.push(...validateNodeTaints(taints, meta.child('taints')));
  errs.push(...validateNodeResources(node));
  const cidrs = node.spec?.podCIDRs ?? [];
  if (cidrs.length > 0) errs.push(...validatePodCIDRs(cidrs));
  return errs;
}

/** ValidateNodeUpdate: podCIDRs and providerID are set once, externalID never changes. */
export function validateNodeUpdate(node: Node, old: Node): ErrorList {
  const meta = FieldPath.of('metadata');
  const errs = validateCoreObjectMetaUpdate(node.metadata ?? {}, old.metadata ?? {});
  errs.push(...validateNodeResources(node));
  const seen: { type: string; address: string }[] = [];
  (node.status?.addresses ?? []).forEach((a, i) => {
    if (seen.some((s) => s.type === a.type && s.address === a.address)) {
      errs.push(
        FieldError.duplicate(FieldPath.of('status', 'addresses').index(i), {
          type: a.type,
          address: a.address,
        }),
      );
    }
    seen.push(a);
  });
  const oldCIDRs = old.spec?.podCIDRs ?? [];
  const newCIDRs = node.spec?.podCIDRs ?? [];
  if (oldCIDRs.length > 0) {
    const path = FieldPath.of('spec', 'podCIDRs');
    if (oldCIDRs.length !== newCIDRs.length) errs.push(FieldError.forbidden(path, podCIDRChange));
    else
      oldCIDRs.forEach((c, i) => {
        if (c !== newCIDRs[i]) errs.push(FieldError.forbidden(path, podCIDRChange));
      });
  }
  const oldProvider = old.spec?.providerID ?? '';
  if (oldProvider !== '' && oldProvider !== (node.spec?.providerID ?? '')) {
    errs.push(FieldError.forbidden(FieldPath.of('spec', 'providerID'), providerIDChange));
  }
  const taints = node.spec?.taints ?? [];
  if (taints.length > 0) errs.push(...validateNodeTaints(taints, meta.child('taints')));
  if (!jsonEqual(node.spec?.externalID ?? '', old.spec?.externalID ?? '')) {
    errs.push(FieldError.forbidden(FieldPath.of('spec', 'externalID'), 'may not be updated'));
  }
  return errs;
}
