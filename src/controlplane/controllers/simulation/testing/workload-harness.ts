// Real in-memory storages for the workload controllers' tests (pods, events, deployments,
// replicasets, jobs, each with its status; the apps scales; HorizontalPodAutoscalers), informers
// over them, and a virtual clock. Pod creates can be refused as an exceeded ResourceQuota refuses them (403 Forbidden), to drive the
// controllers' failure paths without the admission chain.
import type { Deployment } from '../../../../api/apps/v1/deployment.js';
import type { Event } from '../../../../api/core/v1/event.js';
import type { Pod } from '../../../../api/core/v1/pod.js';
import type { KubeObject } from '../../../../api/meta.js';
import { newForbidden } from '../../../../machinery/errors/index.js';
import { VirtualClock } from '../../../../machinery/time/clock.js';
import { newDeploymentREST } from '../../../../registry/apps/deployment/storage.js';
import { replicaSetStorageMap } from '../../../../registry/apps/replicaset/storage.js';
import { jobStorageMap } from '../../../../registry/batch/job/storage.js';
import { newHorizontalPodAutoscalerREST } from '../../../../registry/autoscaling/horizontalpodautoscaler/storage.js';
import { newEventREST } from '../../../../registry/core/event/storage.js';
import { newPodREST, podResource } from '../../../../registry/core/pod/storage.js';
import type { Store } from '../../../../registry/generic/store.js';
import { memoryRESTOptions } from '../../../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../../../registry/rest/api-group-info.js';
import { internalContext } from '../../../../registry/rest/context.js';
import { Logger, memorySink } from '../../../../server/logging/logger.js';
import { EventRecorder, eventsIn } from '../../event-recorder.js';
import { APIClient, type ResourcePath } from '../api-client.js';
import { simClockOf, type SimClock } from '../clock.js';
import { Informer } from '../informer.js';

/** A Deployment of `replicas` nginx pods labelled app=<name>, in the default namespace. */
export const testDeployment = (name: string, replicas: number): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

export interface WorkloadHarness {
  readonly client: APIClient;
  /** The storages, for controllers that look resources up by group and kind. */
  readonly groups: readonly APIGroupInfo[];
  readonly clock: SimClock;
  /** Moves the virtual clock forward, firing the timers it passes. */
  advance(ms: number): Promise<void>;
  readonly logger: Logger;
  /** A running informer over the resource, synced. */
  informer<T extends KubeObject>(path: ResourcePath): Promise<Informer<T>>;
  recorder(component: string): EventRecorder;
  /** While a cause is set, every pod create is refused with it. */
  refusePodCreates(cause: string | undefined): void;
  /** The pod creates tried so far, refused ones included. */
  podCreates(): number;
  /** The events about the named object in the namespace. */
  eventsAbout(namespace: string, name: string): Promise<Event[]>;
  close(): Promise<void>;
}

/** The pods storage, with creates counted and, while a cause is set, refused. */
function refusablePods(pods: Store<Pod>, gate: { cause: string | undefined; creates: number }): Store<Pod> {
  return new Proxy(pods, {
    get(target, prop): unknown {
      if (prop === 'create')
        return (...args: Parameters<Store<Pod>['create']>): ReturnType<Store<Pod>['create']> => {
          gate.creates++;
          if (gate.cause === undefined) return target.create(...args);
          const name = args[1].metadata?.name ?? '';
          return Promise.reject(newForbidden(podResource, name, gate.cause));
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export async function startWorkloadHarness(): Promise<WorkloadHarness> {
  const env = await memoryRESTOptions();
  const opts = { restOptionsGetter: env.getter };
  const pods = await newPodREST(opts);
  const events = await newEventREST(opts);
  const deployments = await newDeploymentREST(opts);
  const hpas = await newHorizontalPodAutoscalerREST(opts);
  const gate: { cause: string | undefined; creates: number } = { cause: undefined, creates: 0 };
  const groups: APIGroupInfo[] = [
    {
      group: '',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: {
        v1: { pods: refusablePods(pods.pods, gate), 'pods/status': pods.status, events },
      },
    },
    {
      group: 'apps',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: {
        v1: {
          deployments: deployments.deployments,
          'deployments/status': deployments.status,
          'deployments/scale': deployments.scale,
          ...(await replicaSetStorageMap(opts)),
        },
      },
    },
    {
      group: 'batch',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: { v1: await jobStorageMap(opts) },
    },
    {
      group: 'autoscaling',
      prioritizedVersions: ['v2'],
      versionedResourcesStorageMap: {
        v2: {
          horizontalpodautoscalers: hpas.horizontalPodAutoscalers,
          'horizontalpodautoscalers/status': hpas.status,
        },
      },
    },
  ];
  const abort = new AbortController();
  const client = new APIClient({ groups, signal: abort.signal, fieldManager: 'test' });
  const virtual = new VirtualClock(Date.parse('2026-03-01T00:00:00Z'));
  const logger = new Logger({ sink: memorySink() });
  const running: Promise<void>[] = [];
  return {
    client,
    groups,
    clock: simClockOf(virtual),
    advance: (ms) => virtual.advance(ms),
    logger,
    informer: async <T extends KubeObject>(path: ResourcePath) => {
      const informer = new Informer<T>(client.source(path), () => undefined);
      running.push(informer.run(abort.signal));
      await informer.synced;
      return informer;
    },
    recorder: (component) =>
      new EventRecorder({ events: eventsIn(groups), component, logger, now: () => virtual.now() }),
    refusePodCreates: (cause) => {
      gate.cause = cause;
    },
    podCreates: () => gate.creates,
    eventsAbout: async (namespace, name) => {
      const list = await events.list(internalContext({ namespace }), {});
      return list.items.filter((e) => e.involvedObject?.name === name);
    },
    close: async () => {
      abort.abort();
      await Promise.allSettled(running);
      await env.close();
    },
  };
}
