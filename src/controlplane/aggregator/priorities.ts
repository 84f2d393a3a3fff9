// The priorities of the local APIServices kube-apiserver registers for its own group versions
// (DefaultGenericAPIServicePriorities in pkg/controlplane/apiserver/aggregator.go, merged with
// pkg/controlplane/aggregator.go's), and those crdregistration gives a CRD's group versions.

export interface APIServicePriority {
  readonly group: number;
  readonly version: number;
}

const builtin: Readonly<Record<string, APIServicePriority>> = {
  'v1.': { group: 18000, version: 1 },
  'v1.apiregistration.k8s.io': { group: 18000, version: 15 },
  'v1.apps': { group: 17800, version: 15 },
  'v1.events.k8s.io': { group: 17750, version: 15 },
  'v1.authentication.k8s.io': { group: 17700, version: 15 },
  'v1.authorization.k8s.io': { group: 17600, version: 15 },
  'v1.autoscaling': { group: 17500, version: 15 },
  'v2.autoscaling': { group: 17500, version: 30 },
  'v1.batch': { group: 17400, version: 15 },
  'v1.certificates.k8s.io': { group: 17300, version: 15 },
  'v1.networking.k8s.io': { group: 17200, version: 15 },
  'v1.policy': { group: 17100, version: 15 },
  'v1.rbac.authorization.k8s.io': { group: 17000, version: 15 },
  'v1.storage.k8s.io': { group: 16800, version: 15 },
  'v1.apiextensions.k8s.io': { group: 16700, version: 15 },
  'v1.admissionregistration.k8s.io': { group: 16700, version: 15 },
  'v1.scheduling.k8s.io': { group: 16600, version: 15 },
  'v1.coordination.k8s.io': { group: 16500, version: 15 },
  'v1.node.k8s.io': { group: 16300, version: 15 },
  'v1.discovery.k8s.io': { group: 16200, version: 15 },
  'v1.flowcontrol.apiserver.k8s.io': { group: 16100, version: 21 },
  // Not kube's own: the simulated metrics API (--simulate-metrics), at metrics-server's priorities.
  'v1beta1.metrics.k8s.io': { group: 100, version: 100 },
};

/** `<version>.<group>`, the name an APIService of the group version must have. */
export const apiServiceName = (group: string, version: string): string => `${version}.${group}`;

/** A built-in group version's priority; undefined for one kube registers no APIService for. */
export function builtinPriority(group: string, version: string): APIServicePriority | undefined {
  return builtin[apiServiceName(group, version)];
}

/** crdregistration's: CRDs sort low, their versions kube-like among themselves. */
export const customResourcePriority: APIServicePriority = { group: 1000, version: 100 };

/** kube-aggregator's autoregister label: `onstart` for the server's own, `true` for CRDs'. */
export const autoRegisterManagedLabel = 'kube-aggregator.kubernetes.io/automanaged';
