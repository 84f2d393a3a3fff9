// Resource names and quantities as the core validation checks them (validateResourceName,
// validateContainerResourceName, ValidateResourceQuotaResourceName, ValidateResourceQuantityValue in
// pkg/apis/core/validation/validation.go; the name sets of pkg/apis/core/helper/helpers.go).
// Shared by LimitRange and ResourceQuota.
import type { ResourceList } from '../../../api/core/v1/limit-range.js';
import {
  FieldError,
  isQualifiedName,
  type ErrorList,
  type FieldPath,
} from '../../../machinery/validation/index.js';
import { isIntegerQuantity, quantityOf, quantitySign } from '../pod/quantity.js';

const standardResources: ReadonlySet<string> = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);

/** standardQuotaResources: the standard ones except `storage`. */
const standardQuotaResources: ReadonlySet<string> = new Set(
  [...standardResources].filter((r) => r !== 'storage'),
);

const standardContainerResources: ReadonlySet<string> = new Set(['cpu', 'memory', 'ephemeral-storage']);

const integerResources: ReadonlySet<string> = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

const isHugePageResourceName = (name: string): boolean => name.startsWith('hugepages-');
const isQuotaHugePageResourceName = (name: string): boolean =>
  name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
const qualified = (name: string): boolean => name.includes('/');

/** IsNativeResource: unqualified, or in the kubernetes.io/ namespace. */
export const isNativeResource = (name: string): boolean =>
  !qualified(name) || name.includes('kubernetes.io/');

/** IsExtendedResourceName: not native, not `requests.`-prefixed, and a qualified name as a quota name. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** IsOvercommitAllowed: native and not hugepages. */
export const isOvercommitAllowed = (name: string): boolean =>
  isNativeResource(name) && !isHugePageResourceName(name);

/** validateResourceName: a qualified name, and a standard one unless it has a '/'. */
export function validateResourceName(name: string, path: FieldPath): ErrorList {
  const errs = isQualifiedName(name).map((msg) => FieldError.invalid(path, name, msg));
  if (errs.length > 0) return errs;
  if (!qualified(name) && !standardResources.has(name) && !isQuotaHugePageResourceName(name))
    errs.push(FieldError.invalid(path, name, 'must be a standard resource type or fully qualified'));
  return errs;
}

/** validateContainerResourceName. */
export function validateContainerResourceName(name: string, path: FieldPath): ErrorList {
  const errs = validateResourceName(name, path);
  if (!qualified(name)) {
    if (!standardContainerResources.has(name) && !isHugePageResourceName(name))
      errs.push(FieldError.invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(FieldError.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** IsStandardQuotaResourceName. */
export const isStandardQuotaResourceName = (name: string): boolean =>
  standardQuotaResources.has(name) || isQuotaHugePageResourceName(name);

/** ValidateResourceQuotaResourceName. */
export function validateResourceQuotaResourceName(name: string, path: FieldPath): ErrorList {
  const errs = validateResourceName(name, path);
  if (!qualified(name) && !isStandardQuotaResourceName(name))
    errs.push(FieldError.invalid(path, name, 'must be a standard resource for quota'));
  return errs;
}

/** IsIntegerResourceName. */
const isIntegerResourceName = (name: string): boolean =>
  integerResources.has(name) || isExtendedResourceName(name);

/** ValidateResourceQuantityValue: not negative, and whole for the counted resources. */
export function validateResourceQuantityValue(name: string, value: string, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const n = quantityOf(value);
  if (n === undefined) return errs;
  if (quantitySign(n) < 0) errs.push(FieldError.invalid(path, value, 'must be greater than or equal to 0'));
  // MilliValue rounds up, so any fraction of a unit is not an integer.
  if (isIntegerResourceName(name) && !isIntegerQuantity(n))
    errs.push(FieldError.invalid(path, value, 'must be an integer'));
  return errs;
}

/** The entries of a resource list in Go's sorted key order (kube ranges over maps; errors come sorted here). */
export function sortedResources(list: ResourceList | undefined): [string, string][] {
  const entries = Object.entries(list ?? {});
  // Most lists come sorted (cpu, memory): a sort would copy them to find that out.
  for (let i = 1; i < entries.length; i++) {
    if ((entries[i - 1] as [string, string])[0] > (entries[i] as [string, string])[0])
      return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
  return entries;
}
