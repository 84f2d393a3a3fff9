// --simulate, --simulate-nodes, --simulate-stages, --simulate-pod-stop-seconds and
// --simulate-metrics: Capstan's own flags for the opt-in simulated cluster; and
// --terminated-pod-gc-threshold, kube-controller-manager's, for its PodGC.
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
        "Runs a simulated cluster inside the server: nodes with simulated kubelets, a scheduler, and kube-controller-manager's workload controllers (ReplicaSet, Deployment, StatefulSet, DaemonSet, Job, CronJob, EndpointSlice, HorizontalPodAutoscaler and others).",
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
  flag(
    {
      section: simulation,
      name: 'simulate-stages',
      kind: 'string',
      usage:
        "With --simulate, a JSON or YAML file of pod stages ({stages: [{name, selector, delay, next}]}) that replaces the simulated kubelets' default pod lifecycle.",
      def: '',
    },
    (o, v) => (o.simulateStages = v === '' ? undefined : v),
  ),
  flag(
    {
      section: simulation,
      name: 'simulate-pod-stop-seconds',
      kind: 'int',
      usage:
        "With --simulate, how many seconds the containers of a deleted pod take to exit at SIGTERM, for a pod without the capstan.dev/stop-seconds annotation (which wins). At or above a pod's grace period, they are killed when it is over, as a process that ignores SIGTERM is.",
      def: '0',
    },
    (o, v) => (o.simulatePodStopSeconds = parseIntFlag(v)),
  ),
  flag(
    {
      section: simulation,
      name: 'simulate-metrics',
      kind: 'bool',
      usage:
        'With --simulate, serve the resource metrics API (metrics.k8s.io/v1beta1, as metrics-server) for `kubectl top` and CPU- and memory-based HorizontalPodAutoscalers: running simulated pods report the usage their capstan.dev/cpu-usage and capstan.dev/memory-usage annotations give (1m and 1Mi per container without them).',
      def: 'true',
    },
    (o, v) => (o.simulateMetrics = parseBoolFlag(v)),
  ),
  flag(
    {
      section: simulation,
      name: 'terminated-pod-gc-threshold',
      kind: 'int',
      usage:
        "With --simulate, kube-controller-manager's: the number of terminated pods that can exist before the terminated pod garbage collector starts deleting them (evicted pods first, then the oldest). If <= 0, the terminated pod garbage collector is disabled.",
      def: '12500',
    },
    (o, v) => (o.terminatedPodGCThreshold = parseIntFlag(v)),
  ),
];
