// The events a kubelet records about a pod's containers (kube 1.33's pkg/kubelet/events reasons):
// on each container's start, the image manager's Pulling and Pulled (images/image_manager.go:
// "already present on machine" when the node holds the image and the pull policy allows it, else
// a pull with its duration and the image's size), then kuberuntime's Created and Started
// (kuberuntime_container.go startContainer); on a pod's deletion, Killing for each running container
// (killContainer); BackOff when a failed container waits to restart (doBackOff). Init containers start first, in spec order, then the containers in spec order,
// as kubelet's computePodActions lists them. Each event is about one container: its involvedObject
// is the pod with the container's field path, as kubecontainer.GenerateContainerRef makes it.
import type { ObjectReference } from '../../../api/core/v1/object-reference.js';
import type { ContainerStatus, PodStatus } from '../../../api/core/v1/pod-status.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { goQuote } from '../../../machinery/structural/go-quote.js';
import { defaultPullPolicy } from '../../../registry/core/pod/defaults.js';
import type { EventType } from '../event-recorder.js';
import { goDuration } from './go-duration.js';
import { normalizedImageReference, simulatedImageSize } from './image-reference.js';

export interface ContainerEvent {
  readonly ref: ObjectReference;
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
}

interface SpecContainer {
  readonly name: string;
  readonly image?: string;
  readonly imagePullPolicy?: string;
}

const specFields = ['initContainers', 'containers', 'ephemeralContainers'] as const;
type SpecField = (typeof specFields)[number];

const statusFields: Record<
  SpecField,
  'initContainerStatuses' | 'containerStatuses' | 'ephemeralContainerStatuses'
> = {
  initContainers: 'initContainerStatuses',
  containers: 'containerStatuses',
  ephemeralContainers: 'ephemeralContainerStatuses',
};

/** ref.GetReference of the pod, narrowed to one container by its field path. */
function containerRef(pod: Pod, field: SpecField, name: string): ObjectReference {
  const meta = pod.metadata;
  return {
    kind: 'Pod',
    namespace: meta?.namespace ?? '',
    name: meta?.name ?? '',
    uid: meta?.uid ?? '',
    apiVersion: 'v1',
    ...(meta?.resourceVersion === undefined ? {} : { resourceVersion: meta.resourceVersion }),
    fieldPath: `spec.${field}{${name}}`,
  };
}

/** A simulated registry serves 100 MiB a second; a pull of an image the node holds only checks it. */
const pullBytesPerSecond = 100 * 1024 * 1024;
function simulatedPullMs(sizeBytes: number, held: boolean): number {
  const full = Math.trunc((sizeBytes * 1000) / pullBytesPerSecond);
  return held ? Math.trunc(full / 10) : full;
}

/** The image manager's EnsureImageExists, as events; `held` says whether the node has the image. */
function imageEvents(c: SpecContainer, held: boolean): { reason: string; message: string }[] {
  const image = c.image ?? '';
  const policy = c.imagePullPolicy ?? defaultPullPolicy(image);
  // A simulated node runs a Never-pulled image it lacks as if it held it.
  if (policy === 'Never' || (policy === 'IfNotPresent' && held))
    return [{ reason: 'Pulled', message: `Container image ${goQuote(image)} already present on machine` }];
  const size = simulatedImageSize(normalizedImageReference(image));
  const took = goDuration(simulatedPullMs(size, held));
  return [
    { reason: 'Pulling', message: `Pulling image ${goQuote(image)}` },
    {
      reason: 'Pulled',
      message: `Successfully pulled image ${goQuote(image)} in ${took} (${took} including waiting). Image size: ${String(size)} bytes.`,
    },
  ];
}

const ran = (s: ContainerStatus | undefined): boolean =>
  s?.state?.running !== undefined || s?.state?.terminated !== undefined;

/**
 * The events of the containers that `after` shows started (running, or an init container done)
 * and `pod.status` did not: kubelet's image, Created and Started events for each, in the order
 * kubelet starts them. `holds` says whether the node had an image before this start.
 */
export function startEvents(
  pod: Pod,
  at: { after: PodStatus; holds: (image: string) => boolean },
): ContainerEvent[] {
  const events: ContainerEvent[] = [];
  const pulled = new Set<string>();
  for (const field of specFields) {
    const before = new Map((pod.status?.[statusFields[field]] ?? []).map((s) => [s.name, s]));
    const now = new Map((at.after[statusFields[field]] ?? []).map((s) => [s.name, s]));
    const containers: readonly SpecContainer[] = pod.spec?.[field] ?? [];
    for (const c of containers) {
      if (!ran(now.get(c.name)) || ran(before.get(c.name))) continue;
      const ref = containerRef(pod, field, c.name);
      const image = c.image ?? '';
      const normalized = normalizedImageReference(image);
      const held = pulled.has(normalized) || at.holds(image);
      pulled.add(normalized);
      for (const e of imageEvents(c, held)) events.push({ ref, type: 'Normal', ...e });
      events.push({ ref, type: 'Normal', reason: 'Created', message: `Created container: ${c.name}` });
      events.push({ ref, type: 'Normal', reason: 'Started', message: `Started container ${c.name}` });
    }
  }
  return events;
}

/**
 * killPodWithSyncResult's Killing events: each running container, then each running sidecar (an
 * init container kept running), the last started first, as kubelet stops sidecars after the rest.
 */
export function killEvents(pod: Pod): ContainerEvent[] {
  const running = (field: SpecField): string[] =>
    (pod.status?.[statusFields[field]] ?? [])
      .filter((s) => s.state?.running !== undefined)
      .map((s) => s.name);
  const order: [SpecField, string[]][] = [
    ['containers', running('containers')],
    ['ephemeralContainers', running('ephemeralContainers')],
    ['initContainers', running('initContainers').reverse()],
  ];
  return order.flatMap(([field, names]) =>
    names.map((name): ContainerEvent => ({
      ref: containerRef(pod, field, name),
      type: 'Normal',
      reason: 'Killing',
      message: `Stopping container ${name}`,
    })),
  );
}

/**
 * kuberuntime's doBackOff: each container about to wait out its restart back-off (restartPolicy
 * OnFailure after a failure) gets a BackOff warning naming the pod as kubelet's format.Pod does.
 */
export function backOffEvents(pod: Pod): ContainerEvent[] {
  const meta = pod.metadata;
  const described = `${meta?.name ?? ''}_${meta?.namespace ?? ''}(${meta?.uid ?? ''})`;
  return (pod.spec?.containers ?? []).map((c) => ({
    ref: containerRef(pod, 'containers', c.name),
    type: 'Warning',
    reason: 'BackOff',
    message: `Back-off restarting failed container ${c.name} in pod ${described}`,
  }));
}
