// The quota evaluators (pkg/quota/v1/evaluator/core and generic/evaluator.go): per resource, which
// quota resource names it counts, what one object uses, which operations change usage, the scopes
// that take an object in, and the pod's container constraints. Every resource gets at least the
// object count evaluator (`count/<resource>.<group>`), as kube's quota configuration gives it.
import type { PersistentVolumeClaim } from '../../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../../api/core/v1/pod.js';
import type { ResourceQuota } from '../../../../api/core/v1/resource-quota.js';
import type { Service } from '../../../../api/core/v1/service.js';
import type { KubeObject } from '../../../../api/meta.js';
import type { Operation } from '../../../attributes.js';
import { amountsOf } from '../../pod-resources.js';
import { podConstraints, podMatchesScopes, podMatchingResources, podUsage } from './pods.js';
import { one, quantityOf, type ResourceAmounts } from './resources.js';
import { isScoped } from './scopes.js';

export interface QuotaEvaluator {
  /** Whether an operation (on the resource, or on one of its subresources) can change what it uses. */
  handles(operation: Operation, subresource: string): boolean;
  /** The names among a quota's hard names that this evaluator counts. */
  matchingResources(names: readonly string[]): string[];
  usage(obj: KubeObject, now: number): ResourceAmounts;
  /** Whether the quota's scopes take the object in. */
  matchesScopes(quota: ResourceQuota, obj: KubeObject): boolean;
  /** A reason the object cannot be admitted under quotas on `required`, or undefined. */
  constraints(required: readonly string[], obj: KubeObject): string | undefined;
}

/** count/<resource> for the core group, count/<resource>.<group> otherwise. */
export const objectCountName = (group: string, resource: string): string =>
  group === '' ? `count/${resource}` : `count/${resource}.${group}`;

/** The core resources whose count has an older name of its own. */
const legacyCountNames: Readonly<Record<string, string>> = {
  configmaps: 'configmaps',
  secrets: 'secrets',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
};

const onCreate = (op: Operation, sub: string): boolean => sub === '' && op === 'CREATE';
const onCreateOrUpdate = (op: Operation, sub: string): boolean =>
  sub === '' && (op === 'CREATE' || op === 'UPDATE');
/** A pod's usage changes when it is made, and when pods/resize changes its containers' resources. */
const podHandles = (op: Operation, sub: string): boolean =>
  sub === '' ? op === 'CREATE' : sub === 'resize' && op === 'UPDATE';
const noConstraints = (): undefined => undefined;
const unscopedOnly = (quota: ResourceQuota): boolean => !isScoped(quota);

function objectCountEvaluator(group: string, resource: string): QuotaEvaluator {
  const names = new Set([objectCountName(group, resource)]);
  const legacy = group === '' ? legacyCountNames[resource] : undefined;
  if (legacy !== undefined) names.add(legacy);
  return {
    handles: onCreate,
    matchingResources: (hard) => hard.filter((n) => names.has(n)),
    usage: () => new Map([...names].map((n) => [n, one])),
    matchesScopes: unscopedOnly,
    constraints: noConstraints,
  };
}

const serviceNames: ReadonlySet<string> = new Set([
  'count/services',
  'services',
  'services.loadbalancers',
  'services.nodeports',
]);

/** evaluator/core/services.go: node ports are counted for NodePort and LoadBalancer services. */
function serviceUsage(obj: KubeObject): ResourceAmounts {
  const svc = obj as Service;
  const usage: ResourceAmounts = new Map([
    ['count/services', one],
    ['services', one],
  ]);
  const ports = svc.spec?.ports?.length ?? 0;
  switch (svc.spec?.type) {
    case 'NodePort':
      usage.set('services.nodeports', quantityOf(ports));
      break;
    case 'LoadBalancer':
      usage.set('services.loadbalancers', one);
      usage.set(
        'services.nodeports',
        quantityOf(svc.spec.allocateLoadBalancerNodePorts === false ? 0 : ports),
      );
      break;
    case undefined:
    default:
      break;
  }
  return usage;
}

const storageClassSuffix = '.storageclass.storage.k8s.io/';

/** evaluator/core/persistent_volume_claims.go. */
function claimUsage(obj: KubeObject): ResourceAmounts {
  const pvc = obj as PersistentVolumeClaim;
  const usage: ResourceAmounts = new Map([
    ['count/persistentvolumeclaims', one],
    ['persistentvolumeclaims', one],
  ]);
  const storage = amountsOf(pvc.spec?.resources?.requests).get('storage');
  const cls = pvc.spec?.storageClassName ?? '';
  if (storage !== undefined) usage.set('requests.storage', storage);
  if (cls !== '') {
    usage.set(`${cls}${storageClassSuffix}persistentvolumeclaims`, one);
    if (storage !== undefined) usage.set(`${cls}${storageClassSuffix}requests.storage`, storage);
  }
  return usage;
}

const claimMatches = (n: string): boolean =>
  n === 'count/persistentvolumeclaims' ||
  n === 'persistentvolumeclaims' ||
  n === 'requests.storage' ||
  (n.includes(storageClassSuffix) &&
    (n.endsWith('/requests.storage') || n.endsWith('/persistentvolumeclaims')));

const coreEvaluators: Readonly<Record<string, QuotaEvaluator>> = {
  pods: {
    handles: podHandles,
    matchingResources: podMatchingResources,
    usage: (obj, now) => podUsage(obj as Pod, now),
    matchesScopes: (quota, obj) => podMatchesScopes(quota, obj as Pod),
    constraints: (required, obj) => podConstraints(required, obj as Pod),
  },
  services: {
    handles: onCreateOrUpdate,
    matchingResources: (hard) => hard.filter((n) => serviceNames.has(n)),
    usage: serviceUsage,
    matchesScopes: unscopedOnly,
    constraints: noConstraints,
  },
  persistentvolumeclaims: {
    handles: onCreateOrUpdate,
    matchingResources: (hard) => hard.filter(claimMatches),
    usage: claimUsage,
    matchesScopes: unscopedOnly,
    constraints: noConstraints,
  },
};

/** The evaluator of a group's resource. */
export function evaluatorFor(group: string, resource: string): QuotaEvaluator {
  return (group === '' ? coreEvaluators[resource] : undefined) ?? objectCountEvaluator(group, resource);
}
