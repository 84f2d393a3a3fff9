// The events a kubelet records about its node as it starts (kube 1.33): "Starting kubelet."
// (kubelet.go Run), the nodestatus setters' first pressure conditions (nodestatus/setters.go,
// recorded through kubelet_node_status.go's recordNodeStatusEvent as "Node <name> status is now:
// <event>"), the container manager's NodeAllocatableEnforced (cm/node_container_manager_linux.go),
// and NodeReady once the Ready condition turns True. Kubelet's nodeRef names the node by its name,
// its uid included, without a namespace; the events go to `default`.
import type { ObjectReference } from '../../../api/core/v1/object-reference.js';

export interface NodeEvent {
  readonly reason: string;
  readonly message: string;
}

export const nodeRef = (name: string): ObjectReference => ({ kind: 'Node', name, uid: name, namespace: '' });

/** A simulated kubelet's start, in the order kubelet records it (its node registers Ready at once). */
export function nodeStartEvents(name: string): NodeEvent[] {
  const status = (event: string): NodeEvent => ({
    reason: event,
    message: `Node ${name} status is now: ${event}`,
  });
  return [
    { reason: 'Starting', message: 'Starting kubelet.' },
    status('NodeHasSufficientMemory'),
    status('NodeHasNoDiskPressure'),
    status('NodeHasSufficientPID'),
    { reason: 'NodeAllocatableEnforced', message: 'Updated Node Allocatable limit across pods' },
    status('NodeReady'),
  ];
}
