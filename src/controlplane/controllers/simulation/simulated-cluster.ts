// --simulate: the parts of a cluster that make a test's workloads move, run inside the server over
// its admitted storages: simulated nodes and their kubelets (in the manner of kwok), a scheduler, and
// kube-controller-manager's workload controllers, and its PV controller beside a simulated external
// provisioner (the default StorageClass `standard`). Informers are shared between them as in one
// process of kube-controller-manager.
import { setMaxListeners } from 'node:events';
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { KubeObject } from '../../../api/meta.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { EventRecorder, eventsIn } from '../event-recorder.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import { DeploymentController } from '../deployment/deployment-controller.js';
import type { Service } from '../../../api/core/v1/service.js';
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import type { EndpointSlice } from '../../../api/discovery/v1/endpoint-slice.js';
import { EndpointSliceController } from '../endpointslice/endpointslice-controller.js';
import type { Job } from '../../../api/batch/v1/job.js';
import { JobController } from '../job/job-controller.js';
import { ReplicaSetController } from '../replicaset/replicaset-controller.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { Kubelets } from '../kubelet/kubelets.js';
import type { PodStages } from '../kubelet/pod-stages.js';
import { NodeHeartbeats } from '../kubelet/node-heartbeats.js';
import { NodeImages } from '../kubelet/node-images.js';
import { defaultNodeShape, type SimulatedNodeShape } from '../kubelet/node-template.js';
import { APIClient, type ResourcePath } from './api-client.js';
import { simClockOf } from './clock.js';
import { systemClock, type Clock } from '../../../machinery/time/clock.js';
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import type { DaemonSet } from '../../../api/apps/v1/daemon-set.js';
import type { ControllerRevision } from '../../../api/apps/v1/controller-revision.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { CronJob } from '../../../api/batch/v1/cron-job.js';
import type { Endpoints } from '../../../api/core/v1/endpoints.js';
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import { StatefulSetController } from '../statefulset/statefulset-controller.js';
import { DaemonSetController } from '../daemonset/daemonset-controller.js';
import { CronJobController } from '../cronjob/cronjob-controller.js';
import { EndpointsController } from '../endpoint/endpoints-controller.js';
import { PodGC } from '../podgc/pod-gc.js';
import { TTLAfterFinishedController } from '../ttlafterfinished/ttl-after-finished.js';
import { DisruptionController } from '../disruption/disruption-controller.js';
import { Informer } from './informer.js';
import type { Lease } from '../../../api/coordination/v1/lease.js';
import { NodeLifecycleController } from '../nodelifecycle/node-lifecycle-controller.js';
import { TaintEvictionController } from '../tainteviction/taint-eviction-controller.js';
import { stopReason } from '../../../machinery/errors/stop-reason.js';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import type { CSIDriver } from '../../../api/storage/v1/csi-driver.js';
import type { CSINode } from '../../../api/storage/v1/csi-node.js';
import type { CSIStorageCapacity } from '../../../api/storage/v1/csi-storage-capacity.js';
import { PersistentVolumeController } from '../persistentvolume/pv-controller.js';
import { SimulatedProvisioner } from '../persistentvolume/simulated-provisioner.js';
import { EphemeralVolumeController } from '../ephemeral/ephemeral-controller.js';
import type { HorizontalPodAutoscaler } from '../../../api/autoscaling/v2/types.js';
import type { ProxyClientCert } from '../../aggregator/proxy.js';
import { HorizontalController } from '../podautoscaler/hpa-controller.js';
import { AggregatedResourceMetrics } from '../podautoscaler/aggregated-metrics.js';

export const simulatedClusterHookName = 'start-simulated-cluster';

export interface SimulatedClusterOptions {
  readonly groups: readonly APIGroupInfo[];
  readonly logger: Logger;
  /** How many nodes to register (--simulate-nodes). */
  readonly nodes: number;
  readonly nodeShape?: SimulatedNodeShape;
  /** The simulated kubelets' pod lifecycle (--simulate-stages). */
  readonly stages?: PodStages | undefined;
  /** A deleted pod's stop time without capstan.dev/stop-seconds (--simulate-pod-stop-seconds; 0). */
  readonly podStopSeconds?: number | undefined;
  /** PodGC's threshold of terminated pods (--terminated-pod-gc-threshold; kube's 12500). */
  readonly terminatedPodGCThreshold?: number | undefined;
  /** The server's clock (default: the system's); a virtual one moves the whole cluster. */
  readonly clock?: Clock;
  /** The custom resources' groups, where the HPA controller also finds scale targets. */
  readonly dynamicGroups?: () => readonly APIGroupInfo[];
  /** The front-proxy client certificate the HPA controller shows the metrics API's server. */
  readonly proxyClientCert?: ProxyClientCert | undefined;
  /** Where the controllers' work queue metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

interface Part {
  run(): void;
  close(): Promise<void>;
}

export class SimulatedCluster {
  readonly #abort = new AbortController();
  readonly #informers: Pick<Informer<KubeObject>, 'run' | 'synced'>[] = [];
  readonly #parts: Part[] = [];
  readonly #logger: Logger;
  #running: Promise<unknown> | undefined;

  constructor(opts: SimulatedClusterOptions) {
    this.#logger = opts.logger;
    // Every informer's list and watch (a few listeners each, some 30 informers) and the HPA
    // controller's metric reads listen for the one abort.
    setMaxListeners(256, this.#abort.signal);
    const clock = simClockOf(opts.clock ?? systemClock);
    const client = new APIClient({
      groups: opts.groups,
      signal: this.#abort.signal,
      fieldManager: 'kube-controller-manager',
    });
    const informer = <T extends KubeObject>(path: ResourcePath): Informer<T> => {
      const i = new Informer<T>(client.source(path), (err) => {
        opts.logger.v(2, `simulated cluster: list and watch of ${path} failed, retrying`, {
          err: errorText(err),
        });
      });
      this.#informers.push(i);
      return i;
    };
    const nodes = informer<Node>('/v1/nodes');
    const namespaces = informer<Namespace>('/v1/namespaces');
    const pods = informer<Pod>('/v1/pods');
    const replicaSets = informer<ReplicaSet>('apps/v1/replicasets');
    const deployments = informer<Deployment>('apps/v1/deployments');
    const services = informer<Service>('/v1/services');
    const replicationControllers = informer<ReplicationController>('/v1/replicationcontrollers');
    const jobs = informer<Job>('batch/v1/jobs');
    const slices = informer<EndpointSlice>('discovery.k8s.io/v1/endpointslices');
    const statefulSets = informer<StatefulSet>('apps/v1/statefulsets');
    const daemonSets = informer<DaemonSet>('apps/v1/daemonsets');
    const revisions = informer<ControllerRevision>('apps/v1/controllerrevisions');
    const claims = informer<PersistentVolumeClaim>('/v1/persistentvolumeclaims');
    const volumes = informer<PersistentVolume>('/v1/persistentvolumes');
    const classes = informer<StorageClass>('storage.k8s.io/v1/storageclasses');
    const csiDrivers = informer<CSIDriver>('storage.k8s.io/v1/csidrivers');
    const storageCapacities = informer<CSIStorageCapacity>('storage.k8s.io/v1/csistoragecapacities');
    const csiNodes = informer<CSINode>('storage.k8s.io/v1/csinodes');
    const cronJobs = informer<CronJob>('batch/v1/cronjobs');
    const endpoints = informer<Endpoints>('/v1/endpoints');
    const budgets = informer<PodDisruptionBudget>('policy/v1/poddisruptionbudgets');
    const leases = informer<Lease>('coordination.k8s.io/v1/leases');
    const hpas = informer<HorizontalPodAutoscaler>('autoscaling/v2/horizontalpodautoscalers');
    const logger = opts.logger;
    const workqueueMetrics = opts.workqueueMetrics;
    // Events are written under the writer's manager, as client-go's recorder writes them with its
    // component's client: the kubelet's and the scheduler's their own, the controllers' the default.
    const recorder = (component: string, fieldManager?: string): EventRecorder =>
      new EventRecorder({
        events: eventsIn(opts.groups),
        component,
        logger: opts.logger,
        now: () => clock.now(),
        ...(fieldManager === undefined ? {} : { fieldManager }),
      });
    // The kubelets record the images they ran; the heartbeats report them in the nodes' status.
    const images = new NodeImages();
    const kubeletEvents = recorder('kubelet', 'kubelet');
    this.#parts.push(
      new NodeHeartbeats({
        workqueueMetrics,
        count: opts.nodes,
        shape: opts.nodeShape ?? defaultNodeShape,
        client,
        nodes,
        clock,
        logger: opts.logger,
        images,
        recorder: kubeletEvents,
      }),
      new Kubelets({
        workqueueMetrics,
        client,
        pods,
        nodes,
        clock,
        logger: opts.logger,
        stages: opts.stages,
        images,
        recorder: kubeletEvents,
        podStopSeconds: opts.podStopSeconds,
      }),
      new Scheduler({
        workqueueMetrics,
        client,
        pods,
        nodes,
        namespaces,
        claims,
        volumes,
        classes,
        csiDrivers,
        storageCapacities,
        csiNodes,
        services,
        replicationControllers,
        replicaSets,
        statefulSets,
        budgets,
        clock,
        logger: opts.logger,
        recorder: recorder('default-scheduler', 'kube-scheduler'),
      }),
      new ReplicaSetController({
        workqueueMetrics,
        client,
        pods,
        replicaSets,
        clock,
        logger: opts.logger,
        recorder: recorder('replicaset-controller'),
      }),
      new DeploymentController({
        workqueueMetrics,
        client,
        deployments,
        replicaSets,
        clock,
        logger: opts.logger,
        recorder: recorder('deployment-controller'),
      }),
      new EndpointSliceController({ workqueueMetrics, client, services, pods, slices, logger: opts.logger }),
      new JobController({
        workqueueMetrics,
        client,
        jobs,
        pods,
        clock,
        logger: opts.logger,
        recorder: recorder('job-controller'),
      }),
      new EphemeralVolumeController({ workqueueMetrics, client, pods, claims, logger }),
      // Before the StatefulSet controller, so the default class exists as soon as it can.
      new SimulatedProvisioner({
        workqueueMetrics,
        client,
        claims,
        volumes,
        classes,
        logger,
        recorder: recorder('capstan.dev/simulated'),
      }),
      new PersistentVolumeController({
        workqueueMetrics,
        client,
        claims,
        volumes,
        classes,
        logger,
        recorder: recorder('persistentvolume-controller'),
      }),
      new StatefulSetController({
        workqueueMetrics,
        client,
        statefulSets,
        pods,
        revisions,
        claims,
        clock,
        logger,
        recorder: recorder('statefulset-controller'),
      }),
      new DaemonSetController({
        workqueueMetrics,
        client,
        daemonSets,
        pods,
        nodes,
        revisions,
        clock,
        logger,
        recorder: recorder('daemonset-controller'),
      }),
      new CronJobController({
        workqueueMetrics,
        client,
        cronJobs,
        jobs,
        clock,
        logger,
        recorder: recorder('cronjob-controller'),
      }),
      new EndpointsController({ workqueueMetrics, client, services, pods, endpoints, logger }),
      new PodGC({
        workqueueMetrics,
        client,
        pods,
        nodes,
        clock,
        logger,
        terminatedPodThreshold: opts.terminatedPodGCThreshold,
      }),
      new TTLAfterFinishedController({ workqueueMetrics, client, jobs, clock, logger }),
      new DisruptionController({ workqueueMetrics, client, budgets, pods, clock, logger }),
      new NodeLifecycleController({
        workqueueMetrics,
        client,
        nodes,
        leases,
        pods,
        clock,
        logger,
        recorder: recorder('node-controller'),
      }),
      new TaintEvictionController({
        workqueueMetrics,
        client,
        nodes,
        pods,
        clock,
        logger,
        recorder: recorder('taint-eviction-controller'),
      }),
      new HorizontalController({
        workqueueMetrics,
        client,
        hpas,
        pods,
        groups: () => [...opts.groups, ...(opts.dynamicGroups?.() ?? [])],
        metrics: new AggregatedResourceMetrics({
          groups: opts.groups,
          signal: this.#abort.signal,
          proxyClientCert: opts.proxyClientCert,
        }),
        clock,
        logger,
        recorder: recorder('horizontal-pod-autoscaler'),
      }),
    );
  }

  /** Starts the informers, then (once they have listed) every part; returns at once. */
  run(): void {
    if (this.#running !== undefined) return;
    this.#logger.info('Starting simulated cluster');
    const signal = this.#abort.signal;
    const informers = this.#informers.map((i) => i.run(signal));
    // Closing before every informer has listed must not wait for lists that will never come.
    const aborted = new Promise<void>((resolve) => {
      signal.addEventListener(
        'abort',
        () => {
          resolve();
        },
        { once: true },
      );
    });
    const synced = Promise.all(this.#informers.map((i) => i.synced));
    const started = Promise.race([synced, aborted]).then(() => {
      if (signal.aborted) return;
      for (const part of this.#parts) part.run();
    });
    this.#running = Promise.all([...informers, started]);
  }

  async close(): Promise<void> {
    this.#abort.abort(stopReason);
    await Promise.all(this.#parts.map((p) => p.close()));
    await this.#running;
  }
}
