// The filter plugins of one scheduling attempt, in kube's order on each node: those of the node alone
// (filters.ts), VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, then
// PodTopologySpread and InterPodAffinity over the pods placed on the nodes. Preemption runs the same
// filters over the pods a node would keep.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { NodeSelector } from '../../../api/core/v1/persistent-volume.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { CSINode } from '../../../api/storage/v1/csi-node.js';
import { matchesNodeSelector } from '../node-selector.js';
import type { Informer } from '../simulation/informer.js';
import { filterNode, type NodeFit } from './filters.js';
import { interPodAffinityFilter, namespaceLabelsOf, type PlacedPod } from './inter-pod-affinity.js';
import type { NodeUsage } from './node-usage.js';
import { podTopologySpreadFilter } from './pod-topology-spread.js';
import { nodeAllocatable, podRequests, type Resources } from './resources.js';
import {
  delayedClaims,
  podVolumeBindings,
  selectedNode,
  volumeNodeConflict,
  type VolumeLookup,
} from './volume-binding.js';
import {
  csiVolumesOf,
  exceedsVolumeLimits,
  maxVolumeCountExceeded,
  type DriverVolumes,
} from './volume-limits.js';
import {
  diskConflict,
  hasDiskConflict,
  hasReadWriteOncePodConflict,
  readWriteOncePodConflict,
} from './volume-restrictions.js';
import { volumeTopologies, volumeZoneConflict, volumeZoneFits, type VolumeTopology } from './volume-zone.js';

/** What one scheduling attempt checks every node against. */
export interface Attempt {
  readonly pod: Pod;
  readonly requests: Resources;
  /** The node a claim of the pod is already bound to a volume on, if any. */
  readonly pinned: string | undefined;
  readonly volumeSelectors: readonly NodeSelector[];
  readonly delayed: ReturnType<typeof delayedClaims>;
  /** Its CSI volumes by driver (NodeVolumeLimits). */
  readonly csiVolumes: DriverVolumes;
  /** The zone and region labels of the volumes its claims are bound to (VolumeZone). */
  readonly volumeZones: readonly VolumeTopology[];
}

/** The pods placed on each node, and the filters that look at them beyond a node's own. */
export interface PlacementFilters {
  readonly podsOn: (node: string) => readonly Pod[];
  /** VolumeRestrictions: another placed pod holds one of the pod's ReadWriteOncePod claims. */
  readonly readWriteOncePodConflict: boolean;
  readonly filters: readonly (
    ((node: Node) => { reason: string; unresolvable: boolean } | undefined) | undefined
  )[];
}

export interface NodeFilterOptions {
  /** The claims and classes pods' volumes need; without them, volumes are not checked. */
  readonly lookup: VolumeLookup | undefined;
  readonly usage: NodeUsage;
  readonly namespaces?: Informer<Namespace> | undefined;
  readonly csiNodes?: Informer<CSINode> | undefined;
}

const fitsNode: NodeFit = { reasons: [], unresolvable: false };

export class NodeFilter {
  readonly #opts: NodeFilterOptions;

  constructor(opts: NodeFilterOptions) {
    this.#opts = opts;
  }

  /** The pod's checks, given the node selectors of the volumes its bound claims have. */
  attempt(pod: Pod, volumeSelectors: readonly NodeSelector[]): Attempt {
    const lookup = this.#opts.lookup;
    return {
      pod,
      requests: podRequests(pod),
      pinned: lookup === undefined ? undefined : selectedNode(pod, lookup),
      volumeSelectors,
      delayed: lookup === undefined ? [] : delayedClaims(pod, lookup),
      csiVolumes: lookup === undefined ? (new Map() as DriverVolumes) : csiVolumesOf(pod, lookup),
      volumeZones: lookup === undefined ? [] : volumeTopologies(pod, lookup),
    };
  }

  /**
   * The pods placed on each node, and the filters that look at them beyond a node's own:
   * PodTopologySpread's, then InterPodAffinity's, each undefined when it has nothing to check.
   */
  placement(pod: Pod, nodes: readonly Node[], podsOn: (node: string) => readonly Pod[]): PlacementFilters {
    const filters = [podTopologySpreadFilter(pod, nodes, podsOn), this.#interPodAffinity(pod, nodes, podsOn)];
    const lookup = this.#opts.lookup;
    const readWriteOncePodConflict =
      lookup !== undefined &&
      hasReadWriteOncePodConflict(pod, () => nodes.flatMap((n) => podsOn(n.metadata?.name ?? '')), lookup);
    return { podsOn, filters, readWriteOncePodConflict };
  }

  /** The filters on one node, `used` being what its pods (and the pods nominated to it) request. */
  fitOn(a: Attempt, on: { node: Node; used: Resources; placement: PlacementFilters }): NodeFit {
    const { node, used, placement } = on;
    const name = node.metadata?.name ?? '';
    if (a.pinned !== undefined && name !== a.pinned)
      return { reasons: [volumeNodeConflict], unresolvable: true };
    const fit = filterNode({
      pod: a.pod,
      requests: a.requests,
      node,
      used,
      allocatable: nodeAllocatable(node),
      podsOnNode: () => placement.podsOn(name),
    });
    if (fit.reasons.length > 0) return fit;
    if (hasDiskConflict(a.pod, () => placement.podsOn(name)))
      return { reasons: [diskConflict], unresolvable: false };
    if (placement.readWriteOncePodConflict)
      return { reasons: [readWriteOncePodConflict], unresolvable: false };
    if (this.#exceedsVolumeLimits(a, name, placement))
      return { reasons: [maxVolumeCountExceeded], unresolvable: false };
    const lookup = this.#opts.lookup;
    const volumeReasons: string[] = [];
    if (!a.volumeSelectors.every((selector) => matchesNodeSelector(selector, node)))
      volumeReasons.push(volumeNodeConflict);
    if (lookup !== undefined && a.delayed.length > 0) {
      const bindings = podVolumeBindings(a.delayed, node, lookup);
      if (typeof bindings === 'string') volumeReasons.push(bindings);
    }
    if (volumeReasons.length > 0) return { reasons: volumeReasons, unresolvable: true };
    if (!volumeZoneFits(a.volumeZones, node.metadata?.labels ?? {}))
      return { reasons: [volumeZoneConflict], unresolvable: true };
    const placementFit = placement.filters.map((filter) => filter?.(node)).find((f) => f !== undefined);
    if (placementFit !== undefined)
      return { reasons: [placementFit.reason], unresolvable: placementFit.unresolvable };
    return fitsNode;
  }

  /** NodeVolumeLimits: the pod's new CSI volumes against the node's CSINode counts. */
  #exceedsVolumeLimits(a: Attempt, node: string, placement: PlacementFilters): boolean {
    const lookup = this.#opts.lookup;
    if (lookup === undefined || a.csiVolumes.size === 0) return false;
    const csiNode = this.#opts.csiNodes?.get(node);
    if (csiNode === undefined) return false;
    const attached = placement.podsOn(node).map((p) => csiVolumesOf(p, lookup));
    return exceedsVolumeLimits(a.csiVolumes, attached, csiNode);
  }

  /** InterPodAffinity's filter; skipped without a term of the pod's or a placed pod's anti-affinity. */
  #interPodAffinity(
    pod: Pod,
    nodes: readonly Node[],
    podsOn: (node: string) => readonly Pod[],
  ): ReturnType<typeof interPodAffinityFilter> {
    const own = pod.spec?.affinity;
    const terms =
      (own?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length +
      (own?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length;
    if (terms === 0 && !this.#opts.usage.anyAntiAffinity) return undefined;
    const placed: PlacedPod[] = [];
    for (const node of nodes) {
      const nodeLabels = node.metadata?.labels ?? {};
      for (const other of podsOn(node.metadata?.name ?? '')) placed.push({ pod: other, nodeLabels });
    }
    const namespaces = this.#opts.namespaces;
    return interPodAffinityFilter(
      pod,
      placed,
      namespaces === undefined ? () => undefined : namespaceLabelsOf((name) => namespaces.get(name)),
    );
  }
}
