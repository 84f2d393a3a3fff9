// The resource metrics API of the simulated cluster (--simulate-metrics): metrics.k8s.io/v1beta1
// served by this server itself, as kwok's clusters serve it through metrics-server, so that the
// aggregator registers it as a local APIService (Available) and `kubectl top` and the HPA
// controller read it. Usage is computed when a metrics path is asked for, from the pods and nodes
// stores; nothing runs otherwise.
import { metricsV1beta1 } from '../../../api/metrics/v1beta1/types.js';
import type { Clock } from '../../../machinery/time/clock.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { NodeMetricsREST } from './node-metrics-rest.js';
import { PodMetricsREST } from './pod-metrics-rest.js';
import { metricsStoresIn } from './stores.js';

/** The metrics.k8s.io group over `groups`' pods and nodes; undefined when those are not served. */
export function simulatedMetricsGroup(
  groups: readonly APIGroupInfo[],
  clock: Clock,
): APIGroupInfo | undefined {
  const stores = metricsStoresIn(groups, clock);
  if (stores === undefined) return undefined;
  return {
    group: metricsV1beta1.group,
    prioritizedVersions: [metricsV1beta1.version],
    versionedResourcesStorageMap: {
      [metricsV1beta1.version]: { nodes: new NodeMetricsREST(stores), pods: new PodMetricsREST(stores) },
    },
  };
}
