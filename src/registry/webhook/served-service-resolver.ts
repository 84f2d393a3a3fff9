// The service resolver over the served groups' storages: Services, EndpointSlices and Endpoints as
// this server serves them. Undefined when Services are not served (then only URLs can be called).
import type { APIGroupInfo } from '../rest/api-group-info.js';
import { isGetter, isLister, type Storage } from '../rest/capabilities.js';
import { EndpointServiceResolver } from './service-resolver.js';

function storageOf(groups: readonly APIGroupInfo[], group: string, resource: string): Storage | undefined {
  return groups.find((g) => g.group === group)?.versionedResourcesStorageMap['v1']?.[resource];
}

export function servedServiceResolver(groups: readonly APIGroupInfo[]): EndpointServiceResolver | undefined {
  const services = storageOf(groups, '', 'services');
  if (services === undefined || !isGetter(services)) return undefined;
  const slices = storageOf(groups, 'discovery.k8s.io', 'endpointslices');
  const endpoints = storageOf(groups, '', 'endpoints');
  return new EndpointServiceResolver({
    services,
    endpointSlices: slices !== undefined && isLister(slices) ? slices : undefined,
    endpoints: endpoints !== undefined && isGetter(endpoints) ? endpoints : undefined,
  });
}
