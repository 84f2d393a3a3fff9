// Controller references (metav1.GetControllerOf and NewControllerRef) and the pod facts workload
// controllers share (podutil.IsPodReady, IsPodAvailable, controller.IsPodActive).
import type { Pod } from '../../../api/core/v1/pod.js';
import type { KubeObject, OwnerReference } from '../../../api/meta.js';

export function controllerRefOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

export function newControllerRef(
  owner: KubeObject,
  gvk: { apiVersion: string; kind: string },
): OwnerReference {
  return {
    apiVersion: gvk.apiVersion,
    kind: gvk.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Not finished and not being deleted. */
export const isPodActive = (pod: Pod): boolean =>
  pod.status?.phase !== 'Succeeded' &&
  pod.status?.phase !== 'Failed' &&
  pod.metadata?.deletionTimestamp === undefined;

/** Whether the pod's condition of that type is True (podutil.IsPodConditionTrue). */
export const podConditionTrue = (pod: Pod, type: string): boolean =>
  pod.status?.conditions?.some((c) => c.type === type && c.status === 'True') === true;

export const isPodReady = (pod: Pod): boolean => podConditionTrue(pod, 'Ready');

/** Ready for at least minReadySeconds at `now`; `after` says when it will be, if it is not yet. */
export function podAvailability(
  pod: Pod,
  minReadySeconds: number,
  now: number,
): { available: boolean; after?: number } {
  if (!isPodReady(pod)) return { available: false };
  if (minReadySeconds <= 0) return { available: true };
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const since = Date.parse(ready?.lastTransitionTime ?? '');
  if (Number.isNaN(since)) return { available: false };
  const at = since + minReadySeconds * 1000;
  return at <= now ? { available: true } : { available: false, after: at - now };
}
