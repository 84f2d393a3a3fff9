// A simulated kubelet's side of an in-place resize (kube 1.33's handlePodResourcesResize and
// canResizePod, InPlacePodVerticalScaling on): a running pod whose containers' resources differ
// from what was allocated to them is resized at once when its node has room, the containers'
// statuses reporting the new allocation (`allocatedResources`, `resources`); a pod asking for more
// than the node can hold gets PodResizePending `Infeasible`, and one that would not fit beside the
// node's other pods gets `Deferred`, tried again when those change. Actuation is instant, so
// PodResizeInProgress is never seen.
import type { Container, ResourceRequirements } from '../../../api/core/v1/container.js';
import type { ContainerStatus, PodCondition, PodStatus } from '../../../api/core/v1/pod-status.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { jsonEqual } from '../../../registry/generic/object-meta.js';
import { podRequests, type Resources } from '../scheduler/resources.js';

export const resizePendingCondition = 'PodResizePending';
const resizeInProgressCondition = 'PodResizeInProgress';

/** The containers a resize applies to: the regular ones and the sidecars. */
const resizable = (pod: Pod): Container[] => [
  ...(pod.spec?.containers ?? []),
  ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
];

/**
 * What the kubelet reports for a container it allocated `resources` to: the requests as
 * allocatedResources, requests and limits as applied (an empty `resources` for neither).
 */
export function allocatedFields(
  resources: ResourceRequirements | undefined,
): Pick<ContainerStatus, 'allocatedResources' | 'resources'> {
  const applied: ResourceRequirements = {};
  if (resources?.limits !== undefined && Object.keys(resources.limits).length > 0)
    applied.limits = { ...resources.limits };
  if (resources?.requests !== undefined && Object.keys(resources.requests).length > 0)
    applied.requests = { ...resources.requests };
  return applied.requests === undefined
    ? { resources: applied }
    : { allocatedResources: { ...applied.requests }, resources: applied };
}

/** Whether the container's spec asks for other resources than its status says it was given. */
function resizeAsked(c: Container, status: ContainerStatus | undefined): boolean {
  if (status?.resources === undefined) return false;
  const want = allocatedFields(c.resources);
  return (
    !jsonEqual(want.resources, status.resources) ||
    !jsonEqual(want.allocatedResources, status.allocatedResources)
  );
}

const hasResizeCondition = (status: PodStatus | undefined): boolean =>
  (status?.conditions ?? []).some(
    (c) => c.type === resizePendingCondition || c.type === resizeInProgressCondition,
  );

/** updatedPodResizeCondition: True, its transition time kept while the reason stays. */
function pendingCondition(
  old: PodStatus | undefined,
  why: { readonly reason: string; readonly message: string },
  now: string,
): PodCondition {
  const { reason, message } = why;
  const before = old?.conditions?.find((c) => c.type === resizePendingCondition);
  const since =
    before?.reason === reason && before.lastTransitionTime !== undefined ? before.lastTransitionTime : now;
  return {
    type: resizePendingCondition,
    status: 'True',
    lastProbeTime: now,
    lastTransitionTime: since,
    reason,
    message,
  };
}

const withoutResizeConditions = (conditions: readonly PodCondition[] | undefined): PodCondition[] =>
  (conditions ?? []).filter((c) => c.type !== resizePendingCondition && c.type !== resizeInProgressCondition);

export interface ResizeNode {
  /** The node's allocatable (milli units, as the scheduler's Resources). */
  readonly allocatable: Resources;
  /** What the node's other active pods have been allocated. */
  readonly used: Resources;
}

/** Go's %d of a milli amount: millicores for cpu, whole units (bytes) for the rest. */
const amount = (resource: string, milli: bigint): string =>
  String(resource === 'cpu' ? milli : milli / 1000n);

/**
 * canResizePod: Infeasible past the node's allocatable (memory checked first), Deferred past what
 * the other pods leave (the admission predicate's first short resource), else undefined.
 */
function whyNot(pod: Pod, node: ResizeNode): { reason: string; message: string } | undefined {
  const want = podRequests(specOnly(pod));
  const cpu = want.get('cpu') ?? 0n;
  const memory = want.get('memory') ?? 0n;
  const cpuCap = node.allocatable.get('cpu') ?? 0n;
  const memoryCap = node.allocatable.get('memory') ?? 0n;
  if (memory > memoryCap)
    return {
      reason: 'Infeasible',
      message: `Node didn't have enough capacity: memory, requested: ${amount('memory', memory)}, capacity: ${amount('memory', memoryCap)}`,
    };
  if (cpu > cpuCap)
    return {
      reason: 'Infeasible',
      message: `Node didn't have enough capacity: cpu, requested: ${amount('cpu', cpu)}, capacity: ${amount('cpu', cpuCap)}`,
    };
  for (const [resource, requested] of want) {
    if (requested === 0n) continue;
    const used = node.used.get(resource) ?? 0n;
    const capacity = node.allocatable.get(resource) ?? 0n;
    if (used + requested > capacity)
      return {
        reason: 'Deferred',
        message: `Node didn't have enough resource: ${resource}, requested: ${amount(resource, requested)}, used: ${amount(resource, used)}, capacity: ${amount(resource, capacity)}`,
      };
  }
  return undefined;
}

/** The pod as its spec alone asks (no status), for the requests a resize would need. */
const specOnly = (pod: Pod): Pod => (pod.spec === undefined ? {} : { spec: pod.spec });

/**
 * The status the kubelet writes for the pod's resize: the containers' statuses with their new
 * allocation and no resize condition, or a PodResizePending condition; undefined when there is
 * nothing to write.
 */
export function resizedStatus(pod: Pod, node: () => ResizeNode, now: string): PodStatus | undefined {
  const old = pod.status;
  const byName = new Map<string, ContainerStatus>();
  for (const s of old?.containerStatuses ?? []) byName.set(s.name, s);
  for (const s of old?.initContainerStatuses ?? []) byName.set(s.name, s);
  if (!resizable(pod).some((c) => resizeAsked(c, byName.get(c.name))))
    return hasResizeCondition(old)
      ? { ...old, conditions: withoutResizeConditions(old?.conditions) }
      : undefined;
  const refused = whyNot(pod, node());
  if (refused !== undefined) {
    const condition = pendingCondition(old, refused, now);
    const before = old?.conditions?.find((c) => c.type === resizePendingCondition);
    if (before?.reason === condition.reason && before?.message === condition.message) return undefined;
    return { ...old, conditions: [condition, ...withoutResizeConditions(old?.conditions)] };
  }
  const spec = new Map(resizable(pod).map((c) => [c.name, c]));
  const resized = (s: ContainerStatus): ContainerStatus => {
    const c = spec.get(s.name);
    if (c === undefined || s.resources === undefined) return s;
    const { allocatedResources: _was, ...rest } = s;
    return { ...rest, ...allocatedFields(c.resources) };
  };
  const status: PodStatus = {
    ...old,
    conditions: withoutResizeConditions(old?.conditions),
    containerStatuses: (old?.containerStatuses ?? []).map(resized),
  };
  if (old?.initContainerStatuses !== undefined)
    status.initContainerStatuses = old.initContainerStatuses.map(resized);
  return status;
}

/** Whether the kubelet holds the pod's resize until the node's other pods leave it room. */
export const resizeDeferred = (pod: Pod): boolean =>
  (pod.status?.conditions ?? []).some((c) => c.type === resizePendingCondition && c.reason === 'Deferred');

/** Whether an update changed what the pod takes of its node (its requests as the scheduler counts them). */
export function takesOtherRoom(pod: Pod, old: Pod | undefined): boolean {
  if (old === undefined) return false;
  const [now, before] = [podRequests(pod), podRequests(old)];
  if (now.size !== before.size) return true;
  for (const [name, v] of now) if (before.get(name) !== v) return true;
  return false;
}
