// pods/resize (ResizeREST in pkg/registry/core/pod/storage/storage.go with podResizeStrategy, kube
// 1.33, InPlacePodVerticalScaling beta and on): get the pod; update or patch only its containers'
// and sidecars' resources and resize policies, which the kubelet then applies in place.
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { resetObjectMetaForStatus } from '../../generic/object-meta.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { UpdateStrategy } from '../../rest/strategy.js';
import { podStrategy } from './strategy.js';
import { validatePodResize } from './validation/resize.js';

/**
 * dropNonResizeUpdatesForContainers: the old containers with the new ones' resources and resize
 * policies; the new list as sent when a name moved (validation refuses it).
 */
function withResizedResources(
  now: Container[] | undefined,
  old: Container[] | undefined,
): Container[] | undefined {
  if (now === undefined || now.length === 0) return now;
  const out: Container[] = [];
  for (let i = 0; i < now.length; i++) {
    const c = now[i] as Container;
    const prior = old?.[i];
    if (prior?.name !== c.name) return now;
    const merged: Container = { ...prior };
    delete merged.resources;
    delete merged.resizePolicy;
    if (c.resources !== undefined) merged.resources = c.resources;
    if (c.resizePolicy !== undefined) merged.resizePolicy = c.resizePolicy;
    out.push(merged);
  }
  return out;
}

/** dropNonResizeUpdates: everything but the resources and resize policies as the stored pod has it. */
function dropNonResizeUpdates(pod: Pod, old: Pod): void {
  const spec = pod.spec ?? { containers: [] };
  const oldSpec = old.spec ?? { containers: [] };
  // Containers added or removed: the pod as sent, for validation to refuse.
  if (
    spec.containers.length !== oldSpec.containers.length ||
    (spec.initContainers?.length ?? 0) !== (oldSpec.initContainers?.length ?? 0)
  )
    return;
  const containers = withResizedResources(spec.containers, oldSpec.containers) ?? [];
  const initContainers = withResizedResources(spec.initContainers, oldSpec.initContainers);
  pod.spec = { ...oldSpec, containers };
  if (initContainers === undefined) delete pod.spec.initContainers;
  else pod.spec.initContainers = initContainers;
  if (old.status === undefined) delete pod.status;
  else pod.status = old.status;
  resetObjectMetaForStatus((pod.metadata ??= {}), old.metadata ?? {});
}

export const podResizeStrategy = {
  ...podStrategy,
  prepareForUpdate: (_ctx, pod, old) => {
    dropNonResizeUpdates(pod, old);
  },
  validateUpdate: (_ctx, pod, old) => validatePodResize(pod, old),
} satisfies UpdateStrategy<Pod>;

/**
 * GET, PUT and PATCH of pods/<name>/resize: the shape of a status subresource (the pod store shared,
 * the whole pod read, a Pod body defaulted as every Pod body is) with the resize strategy. kube
 * 1.33's strategy declares reset fields that its ResizeREST does not expose, so the field manager
 * records a resize as it records any update of the subresource.
 */
export class ResizeREST extends StatusREST<Pod> {
  constructor(store: Store<Pod>) {
    super(store, podResizeStrategy);
  }
}
