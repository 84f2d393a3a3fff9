// The endpoints controller's capacity (pkg/controller/endpoint truncateEndpoints): Endpoints list at
// most 1,000 addresses. Past that, ready addresses are kept before not-ready ones, each subset
// keeping its share (rounded up, so the last subsets may get less), and the Endpoints are annotated
// `endpoints.kubernetes.io/over-capacity: truncated`; the annotation goes once they fit again.
import type { EndpointSubset } from '../../../api/core/v1/endpoints.js';

export const maxEndpointsCapacity = 1000;
export const overCapacityAnnotation = 'endpoints.kubernetes.io/over-capacity';

const count = (subsets: readonly EndpointSubset[], ready: boolean): number =>
  subsets.reduce((n, s) => n + ((ready ? s.addresses : s.notReadyAddresses)?.length ?? 0), 0);

const withoutAddresses = (subset: EndpointSubset): EndpointSubset => {
  const { addresses: _none, ...rest } = subset;
  return rest;
};

/** The subsets cut to the capacity; `truncated` when anything was left out. */
export function truncateSubsets(subsets: readonly EndpointSubset[]): {
  subsets: EndpointSubset[];
  truncated: boolean;
} {
  const ready = count(subsets, true);
  const notReady = count(subsets, false);
  if (ready + notReady <= maxEndpointsCapacity) return { subsets: [...subsets], truncated: false };
  // Too many ready addresses: they are cut and the not-ready ones all go; else only the not-ready.
  const cutReady = ready > maxEndpointsCapacity;
  const room = cutReady ? maxEndpointsCapacity : maxEndpointsCapacity - ready;
  const total = cutReady ? ready : notReady;
  let left = room;
  const out = subsets.map((subset) => {
    const list = (cutReady ? subset.addresses : subset.notReadyAddresses) ?? [];
    const share = Math.min(Math.ceil((list.length / total) * room), left);
    const kept = list.slice(0, share);
    left -= kept.length;
    const { notReadyAddresses: _dropped, ...rest } = subset;
    if (cutReady) return kept.length === 0 ? withoutAddresses(rest) : { ...rest, addresses: kept };
    return kept.length === 0 ? rest : { ...subset, notReadyAddresses: kept };
  });
  return { subsets: out, truncated: true };
}

/** The annotations with the over-capacity mark set or removed. */
export function capacityAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
  truncated: boolean,
): Record<string, string> {
  const { [overCapacityAnnotation]: _mark, ...rest } = annotations ?? {};
  return truncated ? { ...rest, [overCapacityAnnotation]: 'truncated' } : rest;
}
