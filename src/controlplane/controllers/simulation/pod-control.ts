// The pod bookkeeping every workload controller shares (pkg/controller/controller_utils.go:
// GetPodFromTemplate, PodControl.CreatePods, and the expectations its pod event handlers lower).
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { KubeObject } from '../../../api/meta.js';
import type { Expectations } from '../replicaset/expectations.js';
import { copyOf } from './api-client.js';
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
 * Creates `count` pods at once, expecting them first; a creation that failed is observed at once
 * (it will never be seen), and the first failure is thrown so the key is retried.
 */
export async function createPodsExpected(
  expectations: Expectations,
  ownerKey: string,
  creations: readonly (() => Promise<unknown>)[],
): Promise<void> {
  if (creations.length === 0) return;
  expectations.expect(ownerKey, creations.length, []);
  const results = await Promise.allSettled(creations.map((create) => create()));
  const failed = results.filter((r) => r.status === 'rejected');
  for (let i = 0; i < failed.length; i++) expectations.creationObserved(ownerKey);
  if (failed[0] !== undefined) throw failed[0].reason;
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
