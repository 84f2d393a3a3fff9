// IPAddress policy (pkg/registry/networking/ipaddress/strategy.go) and validation
// (ValidateIPAddress, ValidateIPAddressUpdate in pkg/apis/networking/validation): the name is an
// IP address in canonical form, the parent reference is required and immutable.
import type { IPAddress, ParentReference } from '../../../api/networking/v1/ip-address.js';
import {
  FieldError,
  FieldPath,
  goQuote,
  isDNS1123Subdomain,
  omitValue,
  type ErrorList,
  validateObjectMeta,
  validatePathSegmentName,
} from '../../../machinery/validation/index.js';
import { fieldImmutableErrorMsg } from '../../generic/validate-meta-update.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { isValidIP } from '../ip-validation.js';

/** ValidateIPAddressName: IsValidIP's details (a valid IP in canonical form); names are never generated. */
export function validateIPAddressName(name: string): string[] {
  return isValidIP(FieldPath.of('metadata', 'name'), name).map((e) => e.detail);
}

function validateParentReference(ref: ParentReference | undefined): ErrorList {
  const spec = FieldPath.of('spec');
  if (ref === undefined) return [FieldError.required(spec.child('parentRef'), '')];
  const path = spec.child('parentRef');
  const errs: ErrorList = [];
  const group = ref.group ?? '';
  if (group !== '') {
    errs.push(...isDNS1123Subdomain(group).map((m) => FieldError.invalid(path.child('group'), group, m)));
  }
  for (const field of ['resource', 'name'] as const) {
    const value = ref[field] as string | undefined;
    if (value === undefined || value === '') errs.push(FieldError.required(path.child(field), ''));
    else
      errs.push(
        ...validatePathSegmentName(value, false).map((m) => FieldError.invalid(path.child(field), value, m)),
      );
  }
  const ns = ref.namespace ?? '';
  if (ns !== '') {
    errs.push(
      ...validatePathSegmentName(ns, false).map((m) => FieldError.invalid(path.child('namespace'), ns, m)),
    );
  }
  return errs;
}

/** Go's %#v of the internal *networking.ParentReference, as kube prints an immutable one. */
function goParentReference(ref: ParentReference | undefined): string {
  if (ref === undefined) return '<nil>';
  const field = (name: string, value: string | undefined) => `${name}:${goQuote(value ?? '')}`;
  return `&networking.ParentReference{${[
    field('Group', ref.group),
    field('Resource', ref.resource),
    field('Namespace', ref.namespace),
    field('Name', ref.name),
  ].join(', ')}}`;
}

/** ValidateIPAddressUpdate: the parent reference is immutable. */
function validateParentUnchanged(ip: IPAddress, old: IPAddress): ErrorList {
  // Compared as Go compares the structs: an empty group equals an unset one.
  if (goParentReference(ip.spec?.parentRef) === goParentReference(old.spec?.parentRef)) return [];
  return [
    new FieldError({
      type: 'FieldValueInvalid',
      field: 'spec.parentRef',
      badValue: omitValue,
      detail: `${goParentReference(ip.spec?.parentRef)}: ${fieldImmutableErrorMsg}`,
    }),
  ];
}

/** ValidateIPAddress. */
export function validateIPAddress(ip: IPAddress): ErrorList {
  return [
    ...validateObjectMeta(ip.metadata ?? {}, {
      requiresNamespace: false,
      validateName: (name) => validateIPAddressName(name),
    }),
    ...validateParentReference(ip.spec?.parentRef),
  ];
}

export const ipAddressStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => undefined,
  validate: (_ctx, ip) => validateIPAddress(ip),
  warningsOnCreate: () => [],
  prepareForUpdate: () => undefined,
  validateUpdate: (_ctx, ip, old) => [...validateIPAddress(ip), ...validateParentUnchanged(ip, old)],
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<IPAddress> & UpdateStrategy<IPAddress>;

export const ipAddressDeleteStrategy = {} satisfies DeleteStrategy<IPAddress>;
