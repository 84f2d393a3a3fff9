// Container resources as kube validates them (validateResourceRequirements,
// validateResourceQuantityHugePageValue, validateContainerResourceFieldSelector,
// validateContainerResourceDivisor, validateResizePolicy in pkg/apis/core/validation/validation.go).
// Quantities are compared exactly, never as floats.
import type { ContainerResizePolicy } from '../../../../api/core/v1/container-parts.js';
import type { ResourceRequirements } from '../../../../api/core/v1/container.js';
import { quantityString, scaledValue } from '../../../../machinery/quantity/quantity.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../../machinery/validation/index.js';
import {
  isOvercommitAllowed,
  sortedResources,
  validateContainerResourceName,
  validateResourceQuantityValue,
} from '../../resourcequota/resource-names.js';
import { compareQuantityText, isIntegerQuantity, quantityOf, quantitySign } from '../quantity.js';
import { noClaimNames, validateResourceClaimNames } from './resource-claims.js';

const hugePagesPrefix = 'hugepages-';
const qosResources = new Set(['cpu', 'memory']);

/**
 * IsHugePageResourceValueDivisible: a whole number of pages of the name's (positive, whole) size. A
 * negative multiple divides too: kube reports only its sign.
 */
function hugePageValueDivisible(name: string, value: string): boolean {
  const pageSize = quantityOf(name.slice(hugePagesPrefix.length));
  const quantity = quantityOf(value);
  if (pageSize === undefined || quantity === undefined) return false;
  if (quantitySign(pageSize) <= 0 || !isIntegerQuantity(pageSize)) return false;
  return scaledValue(quantity, 0) % scaledValue(pageSize, 0) === 0n;
}

function validateHugePageValue(name: string, value: string, path: FieldPath): ErrorList {
  if (hugePageValueDivisible(name, value)) return [];
  return [FieldError.invalid(path, value, `${value} is not positive integer multiple of ${name}`)];
}

/**
 * ValidateContainerResourceRequirements: names, quantities, requests within limits, hugepages beside
 * cpu or memory, and claims among the pod's (`podClaims`, none when left out).
 */
export function validateResourceRequirements(
  requirements: ResourceRequirements | undefined,
  path: FieldPath,
  podClaims: ReadonlySet<string> = noClaimNames,
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
  const claims = requirements?.claims;
  if (claims != null && claims.length > 0)
    errs.push(...validateResourceClaimNames(claims, podClaims, path.child('claims')));
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

/** The divisors each downward API resource takes, as Quantity.String() writes them. */
const memoryDivisors = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];
const divisorRules: readonly { resources: readonly string[]; divisors: readonly string[]; detail: string }[] =
  [
    {
      resources: ['limits.cpu', 'requests.cpu'],
      divisors: ['1m', '1'],
      detail: "only divisor's values 1m and 1 are supported with the cpu resource",
    },
    {
      resources: ['limits.memory', 'requests.memory'],
      divisors: memoryDivisors,
      detail: `only divisor's values ${memoryDivisors.join(', ')} are supported with the memory resource`,
    },
    {
      resources: ['limits.ephemeral-storage', 'requests.ephemeral-storage'],
      divisors: memoryDivisors,
      detail: `only divisor's values ${memoryDivisors.join(', ')} are supported with the local ephemeral storage resource`,
    },
  ];
const hugePagesDivisorDetail = `only divisor's values ${memoryDivisors.join(', ')} are supported with the hugepages resource`;

/** validateContainerResourceDivisor: an unset (zero) divisor passes; others must suit the resource. */
function validateDivisor(resource: string, divisor: string | undefined, path: FieldPath): ErrorList {
  if (divisor === undefined) return [];
  const parsed = quantityOf(divisor);
  // A divisor that is no quantity never gets past the decoder.
  if (parsed === undefined || quantitySign(parsed) === 0) return [];
  const text = quantityString(parsed);
  const errs: ErrorList = [];
  const rule = divisorRules.find((r) => r.resources.includes(resource));
  if (rule !== undefined && !rule.divisors.includes(text))
    errs.push(FieldError.invalid(path.child('divisor'), resource, rule.detail));
  if (fieldSelectorPrefixes.some((p) => resource.startsWith(p)) && !memoryDivisors.includes(text))
    errs.push(FieldError.invalid(path.child('divisor'), resource, hugePagesDivisorDetail));
  return errs;
}

/** validateContainerResourceFieldSelector; a volume file must name its container. */
export function validateResourceFieldSelector(
  fs: { containerName?: string; resource?: string; divisor?: string },
  at: { path: FieldPath; volume: boolean },
): ErrorList {
  const resource = fs.resource ?? '';
  const errs: ErrorList = [];
  if (at.volume && (fs.containerName ?? '') === '')
    errs.push(FieldError.required(at.path.child('containerName')));
  else if (resource === '') errs.push(FieldError.required(at.path.child('resource')));
  else if (
    !fieldSelectorResources.includes(resource) &&
    !fieldSelectorPrefixes.some((p) => resource.startsWith(p))
  )
    errs.push(FieldError.notSupported(at.path.child('resource'), resource, fieldSelectorResources));
  errs.push(...validateDivisor(resource, fs.divisor, at.path));
  return errs;
}

const resizeResources = ['cpu', 'memory'];
const resizeRestartPolicies = ['NotRequired', 'RestartContainer'];

/** validateResizePolicy: cpu or memory, each once, with a known policy; none restarts a Never pod. */
export function validateResizePolicy(
  policies: readonly ContainerResizePolicy[] | undefined,
  at: { path: FieldPath; podRestartPolicy: string | undefined },
): ErrorList {
  const errs: ErrorList = [];
  const { path } = at;
  const seen = new Set<string>();
  (policies ?? []).forEach((p, i) => {
    const resourceName = p.resourceName ?? '';
    const restartPolicy = p.restartPolicy ?? '';
    if (seen.has(resourceName)) errs.push(FieldError.duplicate(path.index(i), resourceName));
    seen.add(resourceName);
    // kube reports a bad name or policy at the list itself, not at the entry.
    if (resourceName === '') errs.push(FieldError.required(path));
    else if (!resizeResources.includes(resourceName))
      errs.push(FieldError.notSupported(path, resourceName, resizeResources));
    if (restartPolicy === '') errs.push(FieldError.required(path));
    else if (!resizeRestartPolicies.includes(restartPolicy))
      errs.push(FieldError.notSupported(path, restartPolicy, resizeRestartPolicies));
    if (at.podRestartPolicy === 'Never' && restartPolicy !== 'NotRequired')
      errs.push(
        FieldError.invalid(path, restartPolicy, "must be 'NotRequired' when `restartPolicy` is 'Never'"),
      );
  });
  return errs;
}
