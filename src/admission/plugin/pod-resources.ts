// Resource lists as quantities, and a pod's total requests or limits as kube sums them
// (component-helpers resource.PodRequests/PodLimits; limitranger's podRequests/podLimits): the
// containers and restartable (sidecar) init containers add up; each other init container runs
// alone beside the sidecars started before it, and the pod needs the larger of the two.
import type { Container } from '../../api/core/v1/container.js';
import type { ContainerStatus, PodStatus } from '../../api/core/v1/pod-status.js';
import type { PodSpec } from '../../api/core/v1/pod.js';
import {
  addQuantities,
  compareQuantities,
  parseQuantity,
  type Quantity,
} from '../../machinery/quantity/quantity.js';

export type ResourceAmounts = Map<string, Quantity>;

/** The parseable members of a ResourceList (validation has refused the others already). */
export function amountsOf(list: Readonly<Record<string, string>> | undefined): ResourceAmounts {
  const out: ResourceAmounts = new Map();
  for (const [name, text] of Object.entries(list ?? {})) {
    const parsed = parseQuantity(text);
    if (parsed.ok) out.set(name, parsed.quantity);
  }
  return out;
}

/** addResourceList: list += more, member by member. */
export function addInto(list: ResourceAmounts, more: ResourceAmounts): void {
  for (const [name, q] of more) {
    const have = list.get(name);
    list.set(name, have === undefined ? q : addQuantities(have, q));
  }
}

/** maxResourceList: list = max(list, more), member by member. */
function maxInto(list: ResourceAmounts, more: ResourceAmounts): void {
  for (const [name, q] of more) {
    const have = list.get(name);
    if (have === undefined || compareQuantities(q, have) > 0) list.set(name, q);
  }
}

export type RequirementKind = 'requests' | 'limits';

export const containerAmounts = (c: Container, kind: RequirementKind): ResourceAmounts =>
  amountsOf(c.resources?.[kind]);

export interface PodAmountsOptions {
  /** Add spec.overhead (quota does; LimitRanger does not). To limits only where a limit is set. */
  readonly overhead?: boolean;
  /**
   * The pod's status, whose containers' reported resources count too (UseStatusResources, with
   * InPlacePodVerticalScaling): a resize asked for is not yet applied, nor one found infeasible.
   */
  readonly status?: PodStatus | undefined;
}

/** Whether the kubelet found the pod's pending resize impossible (IsPodResizeInfeasible). */
function resizeInfeasible(status: PodStatus): boolean {
  const pending = status.conditions?.find((c) => c.type === 'PodResizePending');
  return pending?.reason === 'Infeasible';
}

/**
 * determineContainerReqs / determineContainerLimits: once the kubelet reports a container's
 * resources, the larger of those (and of its allocation) and the spec's, or the reported ones
 * alone while the spec's resize is infeasible.
 */
function reportedAmounts(
  c: Container,
  kind: RequirementKind,
  of: { readonly status: PodStatus; readonly statuses: ReadonlyMap<string, ContainerStatus> },
): ResourceAmounts {
  const reported = of.statuses.get(c.name);
  if (reported?.resources === undefined) return containerAmounts(c, kind);
  const out: ResourceAmounts = new Map();
  if (!resizeInfeasible(of.status)) maxInto(out, containerAmounts(c, kind));
  maxInto(out, amountsOf(reported.resources[kind]));
  if (kind === 'requests') maxInto(out, amountsOf(reported.allocatedResources));
  return out;
}

/** The pod's total requests or limits. */
export function podAmounts(
  spec: Partial<PodSpec>,
  kind: RequirementKind,
  opts: PodAmountsOptions = {},
): ResourceAmounts {
  const status = opts.status;
  let amounts = (c: Container): ResourceAmounts => containerAmounts(c, kind);
  if (status !== undefined && (status.containerStatuses ?? status.initContainerStatuses) !== undefined) {
    const statuses = new Map<string, ContainerStatus>();
    for (const s of status.containerStatuses ?? []) statuses.set(s.name, s);
    for (const s of status.initContainerStatuses ?? []) statuses.set(s.name, s);
    amounts = (c) => reportedAmounts(c, kind, { status, statuses });
  }
  const total: ResourceAmounts = new Map();
  for (const c of spec.containers ?? []) addInto(total, amounts(c));
  const sidecars: ResourceAmounts = new Map();
  const initMax: ResourceAmounts = new Map();
  for (const c of spec.initContainers ?? []) {
    const own = c.restartPolicy === 'Always' ? amounts(c) : containerAmounts(c, kind);
    if (c.restartPolicy === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      maxInto(initMax, sidecars);
    } else {
      const alone: ResourceAmounts = new Map(sidecars);
      addInto(alone, own);
      maxInto(initMax, alone);
    }
  }
  maxInto(total, initMax);
  if (opts.overhead === true) {
    const overhead = amountsOf(spec.overhead);
    if (kind === 'requests') addInto(total, overhead);
    else for (const [name, q] of overhead) if (total.has(name)) addInto(total, new Map([[name, q]]));
  }
  return total;
}
