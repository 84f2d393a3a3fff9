// Container resources as kube validates them (validateResourceRequirements,
// validateResourceQuantityHugePageValue, validateContainerResourceFieldSelector in
// pkg/apis/core/validation/validation.go). Quantities are compared exactly, never as floats.
import type { ResourceRequirements } from '../../../../api/core/v1/container.js';
import { scaledValue } from '../../../../machinery/quantity/quantity.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../../machinery/validation/index.js';
import {
  isOvercommitAllowed,
  sortedResources,
  validateContainerResourceName,
  validateResourceQuantityValue,
} from '../../resourcequota/resource-names.js';
import { compareQuantityText, quantityOf, quantitySign } from '../quantity.js';

const hugePagesPrefix = 'hugepages-';
const qosResources = new Set(['cpu', 'memory']);

/** IsHugePageResourceValueDivisible: a whole, non-negative number of pages of the name's size. */
function hugePageValueDivisible(name: string, value: string): boolean {
  const pageSize = quantityOf(name.slice(hugePagesPrefix.length));
  const quantity = quantityOf(value);
  if (pageSize === undefined || quantity === undefined) return false;
  if (quantitySign(pageSize) <= 0 || quantitySign(quantity) < 0) return false;
  return scaledValue(quantity, 0) % scaledValue(pageSize, 0) === 0n;
}

function validateHugePageValue(name: string, value: string, path: FieldPath): ErrorList {
  if (hugePageValueDivisible(name, value)) return [];
  return [FieldError.invalid(path, value, `${value} is not positive integer multiple of ${name}`)];
}

/** ValidateContainerResourceRequirements: names, quantities, requests within limits, hugepages beside cpu or memory. */
export function validateResourceRequirements(
  requirements: ResourceRequirements | undefined,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = requirements?.limits ?? {};
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, value] of sortedResources(requirements?.limits)) {
    const p = limPath.key(name);
    errs.push(...validateContainerResourceName(name, p));
    errs.push(...validateResourceQuantityValue(name, value, p));
    if (name.startsWith(hugePagesPrefix)) {
      hugePages = true;
      errs.push(...validateHugePageValue(name, value, p));
    }
    if (qosResources.has(name)) cpuOrMemory = true;
  }
  for (const [name, value] of sortedResources(requirements?.requests)) {
    const p = reqPath.key(name);
    errs.push(...validateContainerResourceName(name, p));
    errs.push(...validateResourceQuantityValue(name, value, p));
    const limit = limits[name];
    if (limit !== undefined) {
      const cmp = compareQuantityText(value, limit);
      if (cmp !== undefined && cmp !== 0 && !isOvercommitAllowed(name))
        errs.push(FieldError.invalid(reqPath, value, `must be equal to ${name} limit of ${limit}`));
      else if (cmp === 1)
        errs.push(
          FieldError.invalid(reqPath, value, `must be less than or equal to ${name} limit of ${limit}`),
        );
    } else if (!isOvercommitAllowed(name)) {
      errs.push(FieldError.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (name.startsWith(hugePagesPrefix)) {
      hugePages = true;
      errs.push(...validateHugePageValue(name, value, p));
    }
    if (qosResources.has(name)) cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) errs.push(FieldError.forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}

/** The container resources a downward API env var or file may read. */
const fieldSelectorResources = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];
const fieldSelectorPrefixes = ['limits.hugepages-', 'requests.hugepages-'];

/** validateContainerResourceFieldSelector; a volume file must name its container. */
export function validateResourceFieldSelector(
  fs: { containerName?: string; resource?: string },
  at: { path: FieldPath; volume: boolean },
): ErrorList {
  const resource = fs.resource ?? '';
  if (at.volume && (fs.containerName ?? '') === '')
    return [FieldError.required(at.path.child('containerName'))];
  if (resource === '') return [FieldError.required(at.path.child('resource'))];
  if (
    !fieldSelectorResources.includes(resource) &&
    !fieldSelectorPrefixes.some((p) => resource.startsWith(p))
  )
    return [FieldError.notSupported(at.path.child('resource'), resource, fieldSelectorResources)];
  return [];
}
