// The simulated kubelets (kwok's pod stages, as data in pod-stages.ts; these are the defaults): a
// pod bound to a simulated node is started at once, Running and Ready with an IP from its node's
// CIDR; a run-to-completion pod (restartPolicy Never or OnFailure) annotated with
// capstan.dev/exit-code, or owned by a Job, exits after capstan.dev/run-seconds and goes Succeeded
// or Failed (OnFailure with a non-zero code restarts instead); an ephemeral container added to a
// running pod (kubectl debug) is started at once; a pod with readiness gates is Ready only once
// their conditions are True (ReadinessGatesNotReady until then); a terminating pod's containers
// exit at SIGTERM at once, or after its capstan.dev/stop-seconds (or the server's
// --simulate-pod-stop-seconds), and at the latest when its grace period is over; the pod is then
// written Failed with its containers terminated (pod-termination.ts) and only then deleted for good
// (grace period 0). It records kubelet's container events (container-events.ts). The kubelet of a
// node annotated capstan.dev/kubelet-stopped does nothing; started again, it goes over its pods and
// posts again the readiness it last posted (the node lifecycle controller may have marked them not
// Ready meanwhile). The images of the containers it ran stay on its node (node-images.ts).
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { isPodReady, podConditionTrue } from '../simulation/controller-ref.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { isKubeletStopped, simulatedNodeLabel } from './node-template.js';
import { addResources, nodeAllocatable, podRequests, type Resources } from '../scheduler/resources.js';
import { isTerminal } from '../scheduler/node-usage.js';
import { PodIPs } from './pod-ips.js';
import type { NodeImages } from './node-images.js';
import { backOffEvents, killEvents, startEvents, type ContainerEvent } from './container-events.js';
import { killedStatus, stopExitCode } from './pod-termination.js';
import { resizeDeferred, resizedStatus, takesOtherRoom, type ResizeNode } from './pod-resize.js';
import { boundAt, readyAsPosted, startedAt, withReadiness, withReadinessGates } from './pod-readiness.js';
import {
  defaultPodStages,
  matchingStage,
  stageDelayMs,
  stageExitCode,
  type PodStages,
} from './pod-stages.js';
import {
  containersGoneAt,
  restartDue,
  restartedStatus,
  runningStatus,
  terminatedStatus,
  withEphemeralStarted,
} from './pod-status.js';

export interface KubeletsOptions {
  readonly client: APIClient;
  readonly pods: Informer<Pod>;
  readonly nodes: Informer<Node>;
  readonly clock: SimClock;
  readonly logger: Logger;
  /** The pod lifecycle (defaultPodStages when unset). */
  readonly stages?: PodStages | undefined;
  /** Where the images of the containers run are kept, per node (not kept when unset). */
  readonly images?: NodeImages | undefined;
  /** kubelet's events about the pods' containers (none recorded when unset). */
  readonly recorder?: EventRecorder | undefined;
  /**
   * How long a deleted pod's containers take to exit at SIGTERM, in seconds, for a pod without the
   * capstan.dev/stop-seconds annotation (--simulate-pod-stop-seconds); unset: 0, at once.
   */
  readonly podStopSeconds?: number | undefined;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class Kubelets {
  readonly #opts: KubeletsOptions;
  readonly #client: APIClient;
  readonly #loop: WorkLoop;
  readonly #ips = new PodIPs();
  readonly #timers = new Map<string, () => void>();
  /** The readiness each running pod was last posted with (kubelet's status manager). */
  readonly #posted = new Map<string, boolean>();
  /** Pods whose resize waits for room on their node (PodResizePending Deferred). */
  readonly #deferred = new Set<string>();
  /** Pods of a kubelet started again, whose readiness it posts again on their next sync. */
  readonly #resumed = new Set<string>();
  /** Terminating pods whose containers were told to stop (their Killing events recorded). */
  readonly #killed = new Set<string>();
  readonly #stages: PodStages;

  constructor(opts: KubeletsOptions) {
    this.#opts = opts;
    this.#client = opts.client.as('kubelet');
    this.#stages = opts.stages ?? defaultPodStages;
    this.#loop = new WorkLoop({
      queueName: 'simulated_kubelet',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'kubelet',
      logger: opts.logger,
      workers: 2,
      sync: (k) => this.#sync(k),
    });
    opts.pods.addHandler((type, pod, old) => {
      const key = keyOf(pod);
      if (type !== 'DELETED' && resizeDeferred(pod)) this.#deferred.add(key);
      else this.#deferred.delete(key);
      if (this.#deferred.size > 0 && (type === 'DELETED' || isTerminal(pod) || takesOtherRoom(pod, old)))
        this.#retryDeferred(pod.spec?.nodeName ?? '');
      if (type === 'DELETED') {
        this.#ips.release(key);
        this.#cancel(key);
        this.#posted.delete(key);
        this.#resumed.delete(key);
        this.#killed.delete(key);
        return;
      }
      this.#holdAddress(key, pod);
      if (this.#runsHere(pod)) this.#loop.queue.add(key);
    });
    opts.nodes.addHandler((type, node, old) => {
      if (type !== 'MODIFIED' || !isKubeletStopped(old) || isKubeletStopped(node)) return;
      const name = node.metadata?.name ?? '';
      for (const pod of opts.pods.list()) {
        if (pod.spec?.nodeName !== name || !this.#runsHere(pod)) continue;
        this.#resumed.add(keyOf(pod));
        this.#loop.queue.add(keyOf(pod));
      }
    });
  }

  run(): void {
    this.#loop.run();
    for (const pod of this.#opts.pods.list()) if (this.#runsHere(pod)) this.#loop.queue.add(keyOf(pod));
  }

  async close(): Promise<void> {
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
    await this.#loop.close();
  }

  /**
   * A finished pod's address is free again (its sandbox is gone, and CNI plugins free the address
   * then; the API keeps it in the pod's status, as kube's does), so a node runs more pods over time
   * than its CIDR has addresses. A running pod's address is held, also when this kubelet did not
   * start it (a restarted server, a fork), so no new pod is given it.
   */
  #holdAddress(key: string, pod: Pod): void {
    if (isTerminal(pod)) this.#ips.release(key);
    else if (pod.spec?.hostNetwork !== true && (pod.status?.podIP ?? '') !== '')
      this.#ips.hold(key, pod.status?.podIP ?? '');
  }

  #runsHere(pod: Pod): boolean {
    const name = pod.spec?.nodeName ?? '';
    const node = name === '' ? undefined : this.#opts.nodes.get(name);
    return node?.metadata?.labels?.[simulatedNodeLabel] === 'true' && !isKubeletStopped(node);
  }

  /** The pod's node as a resize sees it: its allocatable, and what its other active pods were given. */
  #resizeNode(pod: Pod): ResizeNode {
    const name = pod.spec?.nodeName ?? '';
    const node = this.#opts.nodes.get(name);
    const allocatable = node === undefined ? new Map<string, bigint>() : nodeAllocatable(node);
    const used: Resources = new Map();
    const key = keyOf(pod);
    for (const other of this.#opts.pods.list())
      if (other.spec?.nodeName === name && keyOf(other) !== key && !isTerminal(other))
        addResources(used, podRequests(other));
    return { allocatable, used };
  }

  /** A pod on `node` changed what it takes or went: the resizes held there for room are tried again. */
  #retryDeferred(node: string): void {
    for (const key of this.#deferred)
      if (this.#opts.pods.get(key)?.spec?.nodeName === node) this.#loop.queue.add(key);
  }

  #cancel(key: string): void {
    this.#timers.get(key)?.();
    this.#timers.delete(key);
  }

  /** Syncs the pod again at `atMs` (the earlier of two requests wins). */
  #at(key: string, atMs: number): void {
    this.#cancel(key);
    const cancel = this.#opts.clock.after(atMs - this.#opts.clock.now(), () => {
      this.#timers.delete(key);
      this.#loop.queue.add(key);
    });
    this.#timers.set(key, cancel);
  }

  async #sync(key: string): Promise<void> {
    const pod = this.#opts.pods.get(key);
    if (pod === undefined || !this.#runsHere(pod)) return;
    const now = this.#opts.clock.now();
    if (pod.metadata?.deletionTimestamp !== undefined) {
      await this.#terminate(key, pod, now);
      return;
    }
    const phase = pod.status?.phase ?? 'Pending';
    if (phase === 'Succeeded' || phase === 'Failed') return;
    if (phase === 'Running') {
      const posted = this.#posted.get(key);
      if (this.#resumed.delete(key) && posted !== undefined && isPodReady(pod) !== posted) {
        await this.#repost(pod, { now, ready: posted });
        return;
      }
      const restartAt = restartDue(pod);
      if (restartAt !== undefined) {
        await this.#restart(key, pod, { at: restartAt, now });
        return;
      }
      // A readiness gate's condition changed (kubelet regenerates Ready on every sync).
      const containersReady = podConditionTrue(pod, 'ContainersReady');
      if ((pod.spec?.readinessGates ?? []).length > 0 && !readyAsPosted(pod, containersReady)) {
        await this.#start(key, pod, { now, ready: containersReady });
        return;
      }
      const ephemeral = withEphemeralStarted(pod, rfc3339(now));
      if (ephemeral !== undefined) {
        const updated = copyOf(pod);
        updated.status = ephemeral;
        await this.#writeStarted(pod, updated);
        return;
      }
      const resized = resizedStatus(pod, () => this.#resizeNode(pod), rfc3339(now));
      if (resized !== undefined) {
        const updated = copyOf(pod);
        updated.status = resized;
        await this.#writeStatus(updated);
        return;
      }
    }
    const stage = matchingStage(this.#stages, pod);
    if (stage === undefined || 'stay' in stage.next) return;
    // A time written by another clock than the server's (a binding made at real time while the
    // virtual clock stands) counts from now.
    const since = Math.min(now, phase === 'Pending' ? boundAt(pod) : startedAt(pod));
    const delay = stageDelayMs(stage, pod);
    const due = since + delay;
    if (delay > 0 && due > now) {
      this.#at(key, due);
      return;
    }
    if ('phase' in stage.next) {
      const ready = stage.next.ready ?? true;
      if (phase === 'Running' && readyAsPosted(pod, ready)) return;
      await this.#start(key, pod, { now, ready });
      return;
    }
    const exitCode = stageExitCode(stage.next.exit, pod);
    const updated = copyOf(pod);
    const restart = exitCode !== 0 && pod.spec?.restartPolicy === 'OnFailure';
    updated.status = restart
      ? restartedStatus(pod, exitCode, rfc3339(now))
      : terminatedStatus(pod, exitCode, rfc3339(now));
    if ((await this.#writeStatus(updated)) && restart) this.#record(pod, backOffEvents(pod));
  }

  async #start(key: string, pod: Pod, at: { now: number; ready: boolean }): Promise<void> {
    const { now, ready } = at;
    const node = this.#opts.nodes.get(pod.spec?.nodeName ?? '');
    const hostIP = node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
    // A pod on the host's network has the node's address (kubelet's podIPs for hostNetwork pods).
    const podIP =
      pod.spec?.hostNetwork === true && hostIP !== ''
        ? hostIP
        : this.#ips.assign(key, node?.spec?.podCIDR ?? '', pod.status?.podIP);
    if (podIP === undefined) throw new Error(`no free pod IP on node ${pod.spec?.nodeName ?? ''}`);
    const updated = copyOf(pod);
    const stamp = rfc3339(now);
    const status = withReadiness(runningStatus(pod, { hostIP, podIP }, stamp), pod.status, ready);
    updated.status = withReadinessGates(status, { pod, now: stamp });
    await this.#writeStarted(pod, updated);
  }

  /** A status that starts containers, written; then kubelet's events about starting them. */
  async #writeStarted(pod: Pod, updated: Pod): Promise<void> {
    const recorder = this.#opts.recorder;
    const node = this.#opts.nodes.get(pod.spec?.nodeName ?? '');
    const images = this.#opts.images;
    const events =
      recorder === undefined || updated.status === undefined
        ? []
        : startEvents(pod, {
            after: updated.status,
            holds: (image) => node !== undefined && images !== undefined && images.holds(node, image),
          });
    if (await this.#writeStatus(updated)) this.#record(pod, events);
  }

  #record(pod: Pod, events: readonly ContainerEvent[]): void {
    const host = pod.spec?.nodeName ?? '';
    for (const { ref, ...e } of events) this.#opts.recorder?.event(ref, e, { host });
  }

  /** The readiness this kubelet last posted, written again over another writer's. */
  async #repost(pod: Pod, at: { now: number; ready: boolean }): Promise<void> {
    const updated = copyOf(pod);
    const status = withReadiness(updated.status ?? {}, updated.status, at.ready);
    const before = new Map((pod.status?.conditions ?? []).map((c) => [c.type, c.status]));
    status.conditions = (status.conditions ?? []).map((c) =>
      before.get(c.type) === c.status ? c : { ...c, lastTransitionTime: rfc3339(at.now) },
    );
    updated.status = status;
    await this.#writeStatus(updated);
  }

  /** A container in CrashLoopBackOff runs again once its backoff is over. */
  async #restart(key: string, pod: Pod, when: { at: number; now: number }): Promise<void> {
    if (when.at > when.now) {
      this.#at(key, when.at);
      return;
    }
    await this.#start(key, pod, { now: when.now, ready: true });
  }

  /**
   * kubelet's killPod; once the containers are gone (at SIGTERM or at the end of the grace period),
   * the pod's terminal status (pod-termination.ts), and only then the status manager's final delete
   * with grace period 0, which the API server holds back until the pod's finalizers are removed.
   */
  async #terminate(key: string, pod: Pod, now: number): Promise<void> {
    const phase = pod.status?.phase;
    if (phase !== 'Succeeded' && phase !== 'Failed') {
      if (!this.#killed.has(key)) {
        this.#killed.add(key);
        this.#record(pod, killEvents(pod));
      }
      const deadline = containersGoneAt(pod, this.#opts.podStopSeconds);
      if (!Number.isNaN(deadline) && deadline > now) {
        this.#at(key, deadline);
        return;
      }
      const exitCode = stopExitCode(pod, this.#opts.podStopSeconds);
      const updated = copyOf(pod);
      updated.status = killedStatus(pod, { exitCode, now: rfc3339(now) });
      if (!(await this.#writeStatus(updated))) return;
    }
    const { namespace, name } = splitKey(key);
    const uid = pod.metadata?.uid;
    try {
      await this.#client.delete(
        '/v1/pods',
        { namespace, name },
        {
          gracePeriodSeconds: 0,
          ...(uid === undefined ? {} : { preconditions: { uid } }),
        },
      );
    } catch (err) {
      const reason = reasonForError(err);
      if (reason !== 'NotFound' && reason !== 'Conflict') throw err;
    }
  }

  /** Whether the status was written (false: the pod is gone). */
  async #writeStatus(pod: Pod): Promise<boolean> {
    try {
      await this.#client.update('/v1/pods/status', pod);
      this.#posted.set(keyOf(pod), isPodReady(pod));
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
      return false;
    }
    const node = this.#opts.nodes.get(pod.spec?.nodeName ?? '');
    if (node !== undefined) this.#opts.images?.pulled(node, ranImages(pod));
    return true;
  }
}

/**
 * The images of the containers a status the kubelet writes has run: every init container and
 * container (a status is written only once they have started), and the ephemeral containers it
 * reports.
 */
function ranImages(pod: Pod): string[] {
  const started = new Set((pod.status?.ephemeralContainerStatuses ?? []).map((c) => c.name));
  const spec = pod.spec;
  return [
    ...(spec?.initContainers ?? []),
    ...(spec?.containers ?? []),
    ...(spec?.ephemeralContainers ?? []).filter((c) => started.has(c.name)),
  ].map((c) => c.image ?? '');
}
