// --simulate and --simulate-nodes: Capstan's own flags for the opt-in simulated cluster.
import { flag, type Spec } from './flag-helpers.js';
import { parseBoolFlag, parseIntFlag } from './flag-values.js';

const simulation = 'Simulated cluster';
export const simulateFlags: Spec[] = [
  flag(
    {
      section: simulation,
      name: 'simulate',
      kind: 'bool',
      usage:
        'Runs a simulated cluster inside the server: nodes with simulated kubelets, a scheduler, and the ReplicaSet, Deployment, EndpointSlice and Job controllers.',
      def: 'false',
    },
    (o, v) => (o.simulate = parseBoolFlag(v)),
  ),
  flag(
    {
      section: simulation,
      name: 'simulate-nodes',
      kind: 'int',
      usage:
        'With --simulate, the number of simulated Ready nodes to register (sim-node-0, sim-node-1, ...).',
      def: '3',
    },
    (o, v) => (o.simulateNodes = parseIntFlag(v)),
  ),
];
