// What a simulated node looks like when it registers (kwok's fake node): Ready, with the labels,
// addresses, capacity and node info a kubelet reports, and its own pod CIDR.
import type { Node, NodeCondition } from '../../../api/core/v1/node.js';
import { simulatedNodeLabel } from '../../../registry/core/node/simulated.js';

export interface SimulatedNodeShape {
  /** status.capacity and status.allocatable (kube's resource names to quantities). */
  readonly capacity: Readonly<Record<string, string>>;
}

export const defaultNodeShape: SimulatedNodeShape = {
  capacity: { cpu: '32', memory: '256Gi', pods: '110', 'ephemeral-storage': '1Ti' },
};

/** The label that marks a node this server simulates (and whose pods its kubelets run). */
export { simulatedNodeLabel };

/**
 * An annotation that stops a simulated node's kubelet while it is "true": no Lease renewals, no
 * status, no pod work, as a crashed kubelet or a cut network would leave the node.
 */
export const kubeletStoppedAnnotation = 'capstan.dev/kubelet-stopped';

export const isKubeletStopped = (node: Node | undefined): boolean =>
  node?.metadata?.annotations?.[kubeletStoppedAnnotation] === 'true';

export const simulatedNodeName = (index: number): string => `sim-node-${String(index)}`;

/** 172.18.0.2 for the first node, one address further for each next one. */
export function nodeIP(index: number): string {
  const n = index + 2;
  return `172.18.${String(Math.floor(n / 256))}.${String(n % 256)}`;
}

/** 10.244.<index>.0/24: the block the node's pods take their IPs from. */
export const podCIDR = (index: number): string => `10.244.${String(index % 256)}.0/24`;

export function readyConditions(nowText: string): NodeCondition[] {
  const condition = (...[type, status, reason, message]: readonly string[]): NodeCondition => ({
    type: type ?? '',
    status: status ?? '',
    lastHeartbeatTime: nowText,
    lastTransitionTime: nowText,
    reason: reason ?? '',
    message: message ?? '',
  });
  return [
    condition(
      'MemoryPressure',
      'False',
      'KubeletHasSufficientMemory',
      'kubelet has sufficient memory available',
    ),
    condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
  ];
}

export function simulatedNode(index: number, shape: SimulatedNodeShape, nowText: string): Node {
  const name = simulatedNodeName(index);
  const os = 'linux';
  const arch = 'amd64';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': arch,
        'beta.kubernetes.io/os': os,
        'kubernetes.io/arch': arch,
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': os,
        'node.kubernetes.io/exclude-from-external-load-balancers': 'true',
        [simulatedNodeLabel]: 'true',
      },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: { podCIDR: podCIDR(index), podCIDRs: [podCIDR(index)] },
    status: {
      capacity: { ...shape.capacity },
      allocatable: { ...shape.capacity },
      conditions: readyConditions(nowText),
      addresses: [
        { type: 'InternalIP', address: nodeIP(index) },
        { type: 'Hostname', address: name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: name,
        systemUUID: name,
        bootID: name,
        kernelVersion: '6.1.0-capstan',
        osImage: 'Capstan simulated node',
        containerRuntimeVersion: 'capstan://simulated',
        kubeletVersion: 'v1.33.0',
        // DisableNodeKubeProxyVersion is on by default in 1.33: the kubelet leaves it empty.
        kubeProxyVersion: '',
        operatingSystem: os,
        architecture: arch,
      },
    },
  };
}
