// The node lifecycle controller's view of each node's health (tryUpdateNodeHealth in
// pkg/controller/nodelifecycle/node_lifecycle_controller.go): when it last saw the kubelet post a
// Ready heartbeat or renew the node's Lease, in the controller's own time, and the conditions it
// sets to Unknown once that is older than the grace period.
import type { Node, NodeCondition } from '../../../api/core/v1/node.js';
import type { Lease } from '../../../api/coordination/v1/lease.js';

/** kube-controller-manager's defaults (--node-monitor-grace-period is 50s since 1.32). */
export const nodeMonitorGracePeriodMs = 50_000;
export const nodeStartupGracePeriodMs = 60_000;

/** The conditions a silent kubelet leaves Unknown; NetworkUnavailable belongs to the control plane. */
const silencedConditions = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

export interface NodeHealth {
  /** The Ready condition as last seen (undefined: the node never posted one). */
  readonly ready: NodeCondition | undefined;
  /** When the controller last saw a sign of life, in ms of its clock. */
  readonly probeTimestamp: number;
  readonly readyTransitionTimestamp: number;
  /** The Lease's renewTime as last seen. */
  readonly leaseRenewTime: string | undefined;
}

export interface HealthObservation {
  readonly health: NodeHealth;
  readonly gracePeriodMs: number;
  /** The Ready condition the node came with (a stand-in Unknown one when it has none). */
  readonly observedReady: NodeCondition;
  /** The Ready condition after this pass (undefined only if the node has none and keeps none). */
  readonly currentReady: NodeCondition | undefined;
  /** A copy of the node with its conditions set Unknown, to write to nodes/status. */
  readonly update: Node | undefined;
  /** The health to keep once `update` is written. */
  readonly written: NodeHealth;
}

export interface ObserveInput {
  readonly node: Node;
  readonly saved: NodeHealth | undefined;
  readonly lease: Lease | undefined;
  readonly now: number;
  readonly rfc3339: (ms: number) => string;
  readonly gracePeriodMs?: number;
}

const readyOf = (node: Node): NodeCondition | undefined =>
  node.status?.conditions?.find((c) => c.type === 'Ready');

const microTimeMs = (text: string | undefined): number => Date.parse(text ?? '') || 0;

/** One monitor pass over one node. */
export function observeNodeHealth(input: ObserveInput): HealthObservation {
  const { node, now, saved } = input;
  const created = Date.parse(node.metadata?.creationTimestamp ?? '') || now;
  const currentReady = readyOf(node);
  const gracePeriodMs =
    currentReady === undefined ? nodeStartupGracePeriodMs : (input.gracePeriodMs ?? nodeMonitorGracePeriodMs);
  const observedReady: NodeCondition = currentReady ?? {
    type: 'Ready',
    status: 'Unknown',
    ...(node.metadata?.creationTimestamp === undefined
      ? {}
      : {
          lastHeartbeatTime: node.metadata.creationTimestamp,
          lastTransitionTime: node.metadata.creationTimestamp,
        }),
  };
  let health: NodeHealth;
  if (saved === undefined) {
    health =
      currentReady === undefined
        ? {
            ready: undefined,
            probeTimestamp: created,
            readyTransitionTimestamp: created,
            leaseRenewTime: undefined,
          }
        : {
            ready: currentReady,
            probeTimestamp: now,
            readyTransitionTimestamp: now,
            leaseRenewTime: undefined,
          };
  } else if (currentReady === undefined) {
    health =
      saved.ready === undefined
        ? saved
        : { ...saved, ready: undefined, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (saved.ready === undefined) {
    health = { ...saved, ready: currentReady, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (saved.ready.lastHeartbeatTime !== currentReady.lastHeartbeatTime) {
    const transitioned = saved.ready.lastTransitionTime !== currentReady.lastTransitionTime;
    health = {
      ...saved,
      ready: currentReady,
      probeTimestamp: now,
      readyTransitionTimestamp: transitioned ? now : saved.readyTransitionTimestamp,
    };
  } else {
    health = saved;
  }
  // A renewed Lease is a sign of life too, even from a kubelet that never posted a status.
  const renewTime = input.lease?.spec?.renewTime;
  if (
    renewTime !== undefined &&
    (health.leaseRenewTime === undefined || microTimeMs(health.leaseRenewTime) < microTimeMs(renewTime))
  )
    health = { ...health, leaseRenewTime: renewTime, probeTimestamp: now };

  const unchanged = {
    health,
    gracePeriodMs,
    observedReady,
    currentReady,
    update: undefined,
    written: health,
  };
  if (now <= health.probeTimestamp + gracePeriodMs) return unchanged;
  const update = silenced(node, input.rfc3339(now));
  const ready = readyOf(update);
  if (ready?.status === observedReady.status && currentReady !== undefined) return unchanged;
  return {
    health,
    gracePeriodMs,
    observedReady,
    currentReady: ready,
    update,
    written: { ...health, ready, readyTransitionTimestamp: now },
  };
}

/** A copy of the node whose kubelet-owned conditions are Unknown, as a silent kubelet leaves them. */
function silenced(node: Node, nowText: string): Node {
  const copy = structuredClone(node);
  const status = (copy.status ??= {});
  const conditions = (status.conditions ??= []);
  for (const type of silencedConditions) {
    const c = conditions.find((x) => x.type === type);
    if (c === undefined) {
      conditions.push({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        ...(node.metadata?.creationTimestamp === undefined
          ? {}
          : { lastHeartbeatTime: node.metadata.creationTimestamp }),
        lastTransitionTime: nowText,
      });
    } else if (c.status !== 'Unknown') {
      c.status = 'Unknown';
      c.reason = 'NodeStatusUnknown';
      c.message = 'Kubelet stopped posting node status.';
      c.lastTransitionTime = nowText;
    }
  }
  return copy;
}
