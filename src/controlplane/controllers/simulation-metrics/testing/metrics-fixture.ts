// Real in-memory pods and nodes stores with the simulated metrics group over them, on a virtual
// clock, for the metrics storages' tests: nodes simulated or not, pods put in the phase and
// container states a test names (as the simulated kubelets would write them).
import type { Node } from '../../../../api/core/v1/node.js';
import type { Pod } from '../../../../api/core/v1/pod.js';
import type { ContainerStatus } from '../../../../api/core/v1/pod-status.js';
import { VirtualClock } from '../../../../machinery/time/clock.js';
import { newNodeREST } from '../../../../registry/core/node/storage.js';
import { newPodREST } from '../../../../registry/core/pod/storage.js';
import { memoryRESTOptions } from '../../../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../../../registry/rest/api-group-info.js';
import type { Getter, Lister } from '../../../../registry/rest/capabilities.js';
import { internalContext } from '../../../../registry/rest/context.js';
import { simulatedNodeLabel } from '../../../../registry/core/node/simulated.js';
import { kubeletStoppedAnnotation } from '../../kubelet/node-template.js';
import { simulatedMetricsGroup } from '../group.js';

export const fixtureStart = Date.parse('2026-03-01T00:00:00Z');

export interface PodSpecInput {
  readonly namespace?: string;
  readonly node: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  /** Container names (default one, `app`); those listed in `waiting` are not running. */
  readonly containers?: readonly string[];
  readonly sidecars?: readonly string[];
  readonly waiting?: readonly string[];
  readonly phase?: 'Pending' | 'Running' | 'Succeeded';
}

export interface MetricsFixture {
  /** Every group: the core group (pods, nodes) and metrics.k8s.io. */
  readonly groups: readonly APIGroupInfo[];
  readonly podMetrics: Getter & Lister;
  readonly nodeMetrics: Getter & Lister;
  readonly clock: VirtualClock;
  node(
    name: string,
    o?: { simulated?: boolean; stopped?: boolean; annotations?: Record<string, string> },
  ): Promise<void>;
  pod(name: string, o: PodSpecInput): Promise<void>;
  close(): Promise<void>;
}

const status = (name: string, running: boolean): ContainerStatus => ({
  name,
  state: running
    ? { running: { startedAt: '2026-03-01T00:00:00Z' } }
    : { waiting: { reason: 'ContainerCreating' } },
  ready: running,
  restartCount: 0,
  image: 'nginx',
  imageID: '',
  started: running,
});

export async function startMetricsFixture(): Promise<MetricsFixture> {
  const env = await memoryRESTOptions();
  const opts = { restOptionsGetter: env.getter };
  const pods = await newPodREST(opts);
  const nodes = await newNodeREST(opts);
  const core: APIGroupInfo = {
    group: '',
    prioritizedVersions: ['v1'],
    versionedResourcesStorageMap: { v1: { pods: pods.pods, 'pods/status': pods.status, nodes: nodes.nodes } },
  };
  const clock = new VirtualClock(fixtureStart);
  const metrics = simulatedMetricsGroup([core], clock);
  if (metrics === undefined) throw new Error('no metrics group over the core group');
  const served = metrics.versionedResourcesStorageMap['v1beta1'] ?? {};
  return {
    groups: [core, metrics],
    podMetrics: served['pods'] as unknown as Getter & Lister,
    nodeMetrics: served['nodes'] as unknown as Getter & Lister,
    clock,
    node: async (name, o = {}) => {
      const node: Node = {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name,
          labels: o.simulated === false ? { tier: 'real' } : { [simulatedNodeLabel]: 'true', tier: 'sim' },
          annotations: {
            ...o.annotations,
            ...(o.stopped === true ? { [kubeletStoppedAnnotation]: 'true' } : {}),
          },
        },
      };
      await nodes.nodes.create(internalContext(), node, { options: {} });
    },
    pod: async (name, o) => {
      const ctx = internalContext({ namespace: o.namespace ?? 'default' });
      const names = o.containers ?? ['app'];
      const sidecars = o.sidecars ?? [];
      const container = (n: string) => ({ name: n, image: 'nginx' });
      const pod: Pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: o.labels ?? {}, annotations: o.annotations ?? {} },
        spec: {
          nodeName: o.node,
          containers: names.map(container),
          ...(sidecars.length === 0
            ? {}
            : { initContainers: sidecars.map((n) => ({ ...container(n), restartPolicy: 'Always' })) }),
        },
      };
      const created = await pods.pods.create(ctx, pod, { options: {} });
      const waiting = new Set(o.waiting ?? []);
      const phase = o.phase ?? 'Running';
      await pods.status.update(ctx, name, {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_c, old) =>
            Promise.resolve({
              ...(old ?? created),
              status: {
                phase,
                containerStatuses: names.map((n) => status(n, phase === 'Running' && !waiting.has(n))),
                ...(sidecars.length === 0
                  ? {}
                  : { initContainerStatuses: sidecars.map((n) => status(n, phase === 'Running')) }),
              },
            }),
        },
        options: {},
      });
    },
    close: () => env.close(),
  };
}
