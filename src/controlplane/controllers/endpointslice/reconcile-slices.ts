// How a Service's endpoints are spread over EndpointSlices (the endpointslice reconciler's
// reconcile, reconcileByPortMapping and finalize): endpoints are grouped by their resolved ports,
// each group filling slices of at most --max-endpoints-per-slice (100) endpoints. Existing slices
// keep the endpoints still wanted (changed ones rewritten in place) and lose the others; a slice
// left with none goes. New endpoints fill the slices being rewritten anyway, fullest first, then
// an unchanged slice that can take all that remain (the one with the least room), then new slices.
// A Service with no endpoints keeps one placeholder slice without ports. A slice that would be
// created while another goes is made by rewriting the one that goes, as kube's finalize does.
import type { Endpoint, EndpointSlice, EndpointSlicePort } from '../../../api/discovery/v1/endpoint-slice.js';
import { canonicalJSON } from '../deployment/template-hash.js';

/** kube-controller-manager's --max-endpoints-per-slice default. */
export const maxEndpointsPerSlice = 100;

/** The endpoints that share one set of resolved ports. */
export interface EndpointGroup {
  readonly ports: readonly EndpointSlicePort[];
  readonly endpoints: readonly Endpoint[];
}

/** What a slice to create holds; its metadata is the controller's to give. */
export interface NewSlice {
  readonly ports: EndpointSlicePort[];
  readonly endpoints: Endpoint[];
}

export interface SlicePlan {
  readonly create: NewSlice[];
  /** Existing slices with their new endpoints (and ports, where a create became an update). */
  readonly update: EndpointSlice[];
  readonly remove: EndpointSlice[];
}

/** The ports' identity whatever their order (kube's PortMapKey). */
export const portsKey = (ports: readonly EndpointSlicePort[]): string =>
  ports
    .map((p) => canonicalJSON(p))
    .sort()
    .join(',');

/** An endpoint's identity (kube's hashEndpoint): its addresses, hostname and target. */
const endpointKey = (e: Endpoint): string =>
  canonicalJSON([
    [...e.addresses].sort(),
    e.hostname ?? '',
    e.targetRef?.namespace ?? '',
    e.targetRef?.name ?? '',
  ]);

/** The reconcile of one group against its existing slices (reconcileByPortMapping). */
function reconcileGroup(
  existing: readonly EndpointSlice[],
  group: EndpointGroup,
  max: number,
): { create: NewSlice[]; update: EndpointSlice[]; remove: EndpointSlice[] } {
  const wanted = new Map(group.endpoints.map((e) => [endpointKey(e), e]));
  const update = new Map<EndpointSlice, Endpoint[]>();
  const unchanged: EndpointSlice[] = [];
  const remove: EndpointSlice[] = [];
  for (const slice of existing) {
    const had = slice.endpoints ?? [];
    const kept: Endpoint[] = [];
    let changed = false;
    for (const e of had) {
      const key = endpointKey(e);
      const want = wanted.get(key);
      if (want === undefined) continue;
      kept.push(want);
      if (canonicalJSON(want) !== canonicalJSON(e)) changed = true;
      wanted.delete(key);
    }
    if (!changed && kept.length === had.length) unchanged.push(slice);
    else if (kept.length === 0) remove.push(slice);
    else update.set(slice, kept);
  }
  const left = [...wanted.values()];
  let next = 0;
  const take = (n: number): Endpoint[] =>
    left.slice(next, (next = Math.min(left.length, next + Math.max(0, n))));
  // Fill the slices being rewritten anyway, the fullest first.
  for (const [, endpoints] of [...update].sort((a, b) => b[1].length - a[1].length))
    endpoints.push(...take(max - endpoints.length));
  const create: NewSlice[] = [];
  while (next < left.length) {
    const remaining = left.length - next;
    // What is left fits in one unchanged slice: the one with the least room that takes it all.
    const fits =
      remaining < max
        ? unchanged
            .filter((s) => max - (s.endpoints ?? []).length >= remaining)
            .sort((a, b) => (b.endpoints ?? []).length - (a.endpoints ?? []).length)[0]
        : undefined;
    if (fits !== undefined) {
      update.set(fits, [...(fits.endpoints ?? []), ...take(remaining)]);
      continue;
    }
    create.push({ ports: [...group.ports], endpoints: take(max) });
  }
  return {
    create,
    update: [...update].map(([slice, endpoints]) => ({ ...slice, endpoints })),
    remove,
  };
}

const isPlaceholder = (s: EndpointSlice): boolean =>
  (s.endpoints ?? []).length === 0 && (s.ports ?? []).length === 0;

/** The slices to create, rewrite and delete so that `existing` hold `groups`. */
export function reconcileSlices(
  existing: readonly EndpointSlice[],
  groups: readonly EndpointGroup[],
  max = maxEndpointsPerSlice,
): SlicePlan {
  const byPorts = new Map<string, EndpointSlice[]>();
  for (const s of existing) {
    const key = portsKey(s.ports ?? []);
    byPorts.set(key, [...(byPorts.get(key) ?? []), s]);
  }
  const create: NewSlice[] = [];
  const update: EndpointSlice[] = [];
  const remove: EndpointSlice[] = [];
  const wantedPorts = new Set<string>();
  for (const group of groups) {
    const key = portsKey(group.ports);
    wantedPorts.add(key);
    const plan = reconcileGroup(byPorts.get(key) ?? [], group, max);
    create.push(...plan.create);
    update.push(...plan.update);
    remove.push(...plan.remove);
  }
  for (const [key, slices] of byPorts) if (!wantedPorts.has(key)) remove.push(...slices);
  // No slice would be left: one placeholder stays, or is made.
  if (existing.length === remove.length && create.length === 0) {
    const [only] = remove;
    if (remove.length === 1 && only !== undefined && isPlaceholder(only)) remove.length = 0;
    else create.push({ ports: [], endpoints: [] });
  }
  // A slice to create takes the place of one to delete, which is rewritten instead.
  while (create.length > 0 && remove.length > 0) {
    const slice = create.pop() as NewSlice;
    const old = remove.shift() as EndpointSlice;
    update.push({ ...old, ports: slice.ports, endpoints: slice.endpoints });
  }
  return { create, update, remove };
}
