// ServiceCIDR policy (pkg/registry/networking/servicecidr/strategy.go) and validation
// (ValidateServiceCIDR, ValidateServiceCIDRUpdate in pkg/apis/networking/validation): at most two
// CIDRs, one per IP family; the CIDRs are immutable except that a single-stack ServiceCIDR may
// gain a second CIDR of the other family. The status subresource keeps the spec.
import type { ServiceCIDR } from '../../../api/networking/v1/service-cidr.js';
import {
  FieldError,
  FieldPath,
  goQuote,
  nameIsDNSSubdomain,
  omitValue,
  type ErrorList,
  validateObjectMeta,
} from '../../../machinery/validation/index.js';
import { fieldImmutableErrorMsg } from '../../generic/validate-meta-update.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { cidrFamily, isValidCIDR } from '../ip-validation.js';

const cidrsPath = FieldPath.of('spec', 'cidrs');
const goStrings = (values: readonly string[]): string => `[]string{${values.map(goQuote).join(', ')}}`;

/** field.Invalid with a bad value kube prints with Go's %#v. */
const invalidGoValue = (path: FieldPath, value: string, detail: string): FieldError =>
  new FieldError({
    type: 'FieldValueInvalid',
    field: path.toString(),
    badValue: omitValue,
    detail: `${value}: ${detail}`,
  });

function validateSpec(cidrs: readonly string[]): ErrorList {
  if (cidrs.length === 0) return [FieldError.required(cidrsPath, 'at least one CIDR required')];
  if (cidrs.length > 2) {
    const spec = `&networking.ServiceCIDRSpec{CIDRs:${goStrings(cidrs)}}`;
    return [invalidGoValue(cidrsPath, spec, 'may only hold up to 2 values')];
  }
  const errs = cidrs.flatMap((c, i) => isValidCIDR(cidrsPath.index(i), c));
  const [a = '', b] = cidrs;
  if (b !== undefined && cidrFamily(a) !== '' && cidrFamily(a) === cidrFamily(b)) {
    errs.push(
      invalidGoValue(
        cidrsPath,
        goStrings(cidrs),
        'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
      ),
    );
  }
  return errs;
}

/** ValidateServiceCIDR. */
export function validateServiceCIDR(cidr: ServiceCIDR): ErrorList {
  return [
    ...validateObjectMeta(cidr.metadata ?? {}, {
      requiresNamespace: false,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateSpec(cidr.spec?.cidrs ?? []),
  ];
}

/** ValidateServiceCIDRUpdate (the metadata is the generic update's). */
export function validateServiceCIDRUpdate(cidr: ServiceCIDR, old: ServiceCIDR): ErrorList {
  const now = cidr.spec?.cidrs ?? [];
  const before = old.spec?.cidrs ?? [];
  if (now.length === before.length) {
    return before.flatMap((c, i) =>
      now[i] === c ? [] : [FieldError.invalid(cidrsPath.index(i), now[i], fieldImmutableErrorMsg)],
    );
  }
  if (before.length === 1 && now.length === 2) {
    const errs: ErrorList =
      now[0] === before[0] ? [] : [FieldError.invalid(cidrsPath.index(0), now[0], fieldImmutableErrorMsg)];
    return [...errs, ...validateSpec(now)];
  }
  return [invalidGoValue(cidrsPath, goStrings(now), fieldImmutableErrorMsg)];
}

export const serviceCIDRStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  // kube's strategy neither clears the status on create nor keeps it on update.
  prepareForCreate: () => undefined,
  validate: (_ctx, cidr) => validateServiceCIDR(cidr),
  warningsOnCreate: () => [],
  prepareForUpdate: () => undefined,
  validateUpdate: (_ctx, cidr, old) => [
    ...validateServiceCIDR(cidr),
    ...validateServiceCIDRUpdate(cidr, old),
  ],
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<ServiceCIDR> & UpdateStrategy<ServiceCIDR>;

/** servicecidrs/status: takes the status, keeps the spec; only the metadata is validated. */
export const serviceCIDRStatusStrategy = {
  ...serviceCIDRStrategy,
  prepareForUpdate: (_ctx, cidr, old) => {
    if (old.spec !== undefined) cidr.spec = old.spec;
    else delete cidr.spec;
  },
  validateUpdate: () => [],
} satisfies UpdateStrategy<ServiceCIDR>;

export const serviceCIDRDeleteStrategy = {} satisfies DeleteStrategy<ServiceCIDR>;
