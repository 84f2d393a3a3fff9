// The filter plugins of kube-scheduler's default profile that a simulated cluster needs, in their
// order (NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit), each
// answering the reasons a node does not fit, worded as the plugins word them.
import type { Node, Taint } from '../../../api/core/v1/node.js';
import type { NodeSelector } from '../../../api/core/v1/persistent-volume.js';
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod, Toleration } from '../../../api/core/v1/pod.js';
import { matchesNodeSelector } from '../node-selector.js';
import type { Resources } from './resources.js';

export interface NodeFit {
  readonly reasons: readonly string[];
  /** UnschedulableAndUnresolvable: preemption cannot help on this node. */
  readonly unresolvable: boolean;
}

const fits: NodeFit = { reasons: [], unresolvable: false };

/** Toleration.ToleratesTaint. */
export function tolerates(t: Toleration, taint: Taint): boolean {
  if ((t.effect ?? '') !== '' && t.effect !== taint.effect) return false;
  if ((t.key ?? '') !== '' && t.key !== taint.key) return false;
  switch (t.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/** FindMatchingUntoleratedTaint over the NoSchedule and NoExecute taints. */
export const untolerated = (pod: Pod, taints: readonly Taint[]): Taint | undefined =>
  taints.find(
    (taint) =>
      (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') &&
      !(pod.spec?.tolerations ?? []).some((t) => tolerates(t, taint)),
  );

/** nodeSelector and requiredDuringSchedulingIgnoredDuringExecution (its terms ORed). */
export function matchesNodeAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const affinity = pod.spec?.affinity as
    { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector } } | undefined;
  return matchesNodeSelector(affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution, node);
}

function resourceReasons(requests: Resources, used: Resources, allocatable: Resources): string[] {
  const reasons: string[] = [];
  // Every pod takes one of the node's pod slots (allocatable pods, in milli here).
  if ((used.get('pods') ?? 0n) + 1000n > (allocatable.get('pods') ?? 0n)) reasons.push('Too many pods');
  for (const [name, want] of requests) {
    if (want === 0n) continue;
    if ((used.get(name) ?? 0n) + want > (allocatable.get(name) ?? 0n)) reasons.push(`Insufficient ${name}`);
  }
  return reasons;
}

export interface FilterInput {
  readonly pod: Pod;
  readonly requests: Resources;
  readonly node: Node;
  readonly used: Resources;
  readonly allocatable: Resources;
  /** The pods already on the node (for their host ports), asked for only when the pod wants one. */
  readonly podsOnNode?: () => readonly Pod[];
}

/** A container port's host port as NodeInfo.UsedPorts keys it: its IP (0.0.0.0 for any), protocol, port. */
interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

/** The containers that run as long as the pod: its sidecars (init containers restarted Always) and containers. */
function runningContainers(pod: Pod): Container[] {
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  return [...sidecars, ...(pod.spec?.containers ?? [])];
}

/** GetHostPorts: the ports of the pods' running containers that ask for a host port. */
function hostPorts(pods: readonly Pod[]): HostPort[] {
  const out: HostPort[] = [];
  for (const pod of pods)
    for (const c of runningContainers(pod))
      for (const p of c.ports ?? [])
        if ((p.hostPort ?? 0) > 0)
          out.push({
            ip: (p.hostIP ?? '') === '' ? '0.0.0.0' : (p.hostIP ?? ''),
            protocol: (p.protocol ?? '') === '' ? 'TCP' : (p.protocol ?? ''),
            port: p.hostPort ?? 0,
          });
  return out;
}

/** HostPortInfo.CheckConflict: the same protocol and port, on the same IP or where either is any. */
const conflicts = (a: HostPort, b: HostPort): boolean =>
  a.protocol === b.protocol &&
  a.port === b.port &&
  (a.ip === b.ip || a.ip === '0.0.0.0' || b.ip === '0.0.0.0');

/** NodePorts: whether a host port the pod asks for is taken on the node. */
function portsTaken(pod: Pod, podsOnNode: () => readonly Pod[]): boolean {
  const wanted = hostPorts([pod]);
  if (wanted.length === 0) return false;
  const used = hostPorts(podsOnNode());
  return wanted.some((w) => used.some((u) => conflicts(w, u)));
}

export function filterNode(i: FilterInput): NodeFit {
  const { pod, node } = i;
  const unschedulableTaint: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
  if (
    node.spec?.unschedulable === true &&
    !(pod.spec?.tolerations ?? []).some((t) => tolerates(t, unschedulableTaint))
  )
    return { reasons: ['node(s) were unschedulable'], unresolvable: true };
  const taint = untolerated(pod, node.spec?.taints ?? []);
  if (taint !== undefined)
    return {
      reasons: [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`],
      unresolvable: true,
    };
  if (!matchesNodeAffinity(pod, node))
    return { reasons: ["node(s) didn't match Pod's node affinity/selector"], unresolvable: true };
  if (portsTaken(pod, i.podsOnNode ?? (() => [])))
    return { reasons: ["node(s) didn't have free ports for the requested pod ports"], unresolvable: false };
  const reasons = resourceReasons(i.requests, i.used, i.allocatable);
  return reasons.length === 0 ? fits : { reasons, unresolvable: false };
}

/**
 * FitError's message: how many nodes failed for each reason, sorted, then what preemption (the
 * PostFilter) said, when it said something: "0/3 nodes are available: 3 Insufficient cpu.
 * preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.." (kube
 * ends each part with a period, so a part that is itself such a message ends with two).
 */
export function fitErrorMessage(total: number, fitsByNode: readonly NodeFit[], postFilter?: string): string {
  if (total === 0) return 'no nodes available to schedule pods';
  const histogram = new Map<string, number>();
  for (const fit of fitsByNode) for (const r of fit.reasons) histogram.set(r, (histogram.get(r) ?? 0) + 1);
  const counted = [...histogram]
    .map(([reason, n]) => `${String(n)} ${reason}`)
    .sort()
    .join(', ');
  return withPostFilter(`0/${String(total)} nodes are available: ${counted}.`, postFilter);
}

/** A FitError's message with the PostFilter's part appended. */
export const withPostFilter = (message: string, postFilter: string | undefined): string =>
  postFilter === undefined || postFilter === '' ? message : `${message} ${postFilter}.`;
