// The pod bookkeeping every workload controller shares (pkg/controller/controller_utils.go:
// GetPodFromTemplate, PodControl.CreatePods, and the expectations its pod event handlers lower).
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { KubeObject } from '../../../api/meta.js';
import { StatusError } from '../../../machinery/errors/index.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { EventRecorder } from '../event-recorder.js';
import type { Expectations } from '../replicaset/expectations.js';
import { copyOf, type APIClient } from './api-client.js';
import { newControllerRef } from './controller-ref.js';
import { keyOf, type InformerEventType } from './informer.js';

/** A pod from the owner's template, controlled by the owner; named, or generated from `<owner>-`. */
export function podFromTemplate(
  owner: KubeObject,
  from: {
    gvk: { apiVersion: string; kind: string };
    template: PodTemplateSpec | undefined;
    name?: string;
  },
): Pod {
  const { gvk, template, name } = from;
  const tm = template?.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(name === undefined ? { generateName: `${owner.metadata?.name ?? ''}-` } : { name }),
      namespace: owner.metadata?.namespace ?? '',
      ...(tm.labels === undefined ? {} : { labels: { ...tm.labels } }),
      ...(tm.annotations === undefined ? {} : { annotations: { ...tm.annotations } }),
      ...(tm.finalizers === undefined ? {} : { finalizers: [...tm.finalizers] }),
      ownerReferences: [newControllerRef(owner, gvk)],
    },
    spec: copyOf(template?.spec ?? { containers: [] }),
  };
}

/** A pod event seen by the owner's controller: an expected creation or deletion is observed. */
export function observePod(
  expectations: Expectations,
  ownerKey: string,
  event: { type: InformerEventType; pod: Pod; old: Pod | undefined },
): void {
  const { type, pod, old } = event;
  if (type === 'ADDED') expectations.creationObserved(ownerKey);
  const deleting =
    type === 'DELETED' ||
    (pod.metadata?.deletionTimestamp !== undefined && old?.metadata?.deletionTimestamp === undefined);
  if (deleting) expectations.deletionObserved(ownerKey, keyOf(pod));
}

/**
 * Creates the pods in slow-start batches of 1, 2, 4, … (slowStartBatch in controller_utils.go),
 * expecting them all first; after a batch in which one failed, the rest are not tried, so a
 * refusal such as an exceeded quota costs one request and one event. Failed and skipped creations
 * are observed at once (they will never be seen) and the first failure is thrown so the key is
 * retried.
 */
export async function createPodsExpected(
  expectations: Expectations,
  ownerKey: string,
  creations: readonly (() => Promise<unknown>)[],
): Promise<void> {
  if (creations.length === 0) return;
  expectations.expect(ownerKey, creations.length, []);
  let tried = 0;
  let failure: PromiseRejectedResult | undefined;
  for (let size = 1; tried < creations.length && failure === undefined; size *= 2) {
    const batch = creations.slice(tried, tried + size);
    tried += batch.length;
    for (const r of await Promise.allSettled(batch.map((create) => create()))) {
      if (r.status === 'fulfilled') continue;
      expectations.creationObserved(ownerKey);
      failure ??= r;
    }
  }
  for (let i = tried; i < creations.length; i++) expectations.creationObserved(ownerKey);
  if (failure !== undefined) throw failure.reason;
}

/** What a pod write is refused with while its namespace is being deleted (v1.NamespaceTerminatingCause). */
export const isNamespaceTerminating = (err: unknown): boolean =>
  err instanceof StatusError &&
  (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');

/** How a controller writes pods and tells of it on its object (RealPodControl). */
export interface PodControl {
  readonly client: APIClient;
  readonly recorder: EventRecorder | undefined;
}

/**
 * RealPodControl.createPods: the pod created, with a SuccessfulCreate event on its owner, or a
 * FailedCreate one (none while the namespace is terminating) and the error thrown.
 */
export async function createPod(
  control: PodControl,
  at: { owner: KubeObject; gvk: { apiVersion: string; kind: string }; pod: Pod },
): Promise<Pod> {
  const { owner, gvk, pod } = at;
  let created: Pod;
  try {
    created = await control.client.create('/v1/pods', owner.metadata?.namespace ?? '', pod);
  } catch (err) {
    if (!isNamespaceTerminating(err))
      control.recorder?.event(objectRef(owner, gvk), {
        type: 'Warning',
        reason: 'FailedCreate',
        message: `Error creating: ${errorText(err)}`,
      });
    throw err;
  }
  control.recorder?.event(objectRef(owner, gvk), {
    type: 'Normal',
    reason: 'SuccessfulCreate',
    message: `Created pod: ${created.metadata?.name ?? ''}`,
  });
  return created;
}

/** An owner as an event's involvedObject. */
export function objectRef(
  obj: KubeObject,
  gvk: { apiVersion: string; kind: string },
): { kind: string; apiVersion: string; name: string; namespace: string; uid: string } {
  return {
    kind: gvk.kind,
    apiVersion: gvk.apiVersion,
    name: obj.metadata?.name ?? '',
    namespace: obj.metadata?.namespace ?? '',
    uid: obj.metadata?.uid ?? '',
  };
}
