// The label that marks a node a Capstan server simulates (`--simulate`): its kubelet is simulated
// and its pods' containers do not run.
import type { KubeObject } from '../../../api/meta.js';

export const simulatedNodeLabel = 'capstan.dev/simulated';

export const isSimulatedNode = (node: KubeObject | undefined): boolean =>
  node?.metadata?.labels?.[simulatedNodeLabel] === 'true';
