// DropDisabledPodFields (pkg/api/pod/util.go) for the gates Capstan models: what a pod may not
// hold while its feature is off is dropped from a create, and from an update unless the old pod
// already used it. kube 1.33's defaults leave ImageVolume, ClusterTrustBundleProjection and
// PodObservedGenerationTracking off, and InPlacePodVerticalScaling on.
import type { Container } from '../../../api/core/v1/container.js';
import type { PodStatus } from '../../../api/core/v1/pod-status.js';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { KubeObject } from '../../../api/meta.js';
import { FeatureGates } from '../../../machinery/featuregate/feature-gates.js';
import type { RequestContext } from '../../rest/context.js';
import type { CreateStrategy, UpdateStrategy } from '../../rest/strategy.js';

const imageVolumesInUse = (spec: PodSpec | undefined): boolean =>
  (spec?.volumes ?? []).some((v) => v.image != null);

const clusterTrustBundlesInUse = (spec: PodSpec | undefined): boolean =>
  (spec?.volumes ?? []).some((v) => (v.projected?.sources ?? []).some((s) => s.clusterTrustBundle != null));

const resizePoliciesInUse = (spec: PodSpec | undefined): boolean =>
  [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])].some(
    (c) => (c.resizePolicy ?? []).length > 0,
  );

const observedGenerationInUse = (status: PodStatus | undefined): boolean =>
  (status?.observedGeneration ?? 0) !== 0 ||
  (status?.conditions ?? []).some((c) => (c.observedGeneration ?? 0) !== 0);

/** dropImageVolumes: the image volumes go, and every container's mounts of them. */
function dropImageVolumes(spec: PodSpec): void {
  const volumes = spec.volumes;
  if (volumes === undefined || !volumes.some((v) => v.image != null)) return;
  const names = new Set(volumes.filter((v) => v.image != null).map((v) => v.name));
  const kept = volumes.filter((v) => v.image == null);
  if (kept.length > 0) spec.volumes = kept;
  else delete spec.volumes;
  const unmount = (c: { volumeMounts?: Container['volumeMounts'] }): void => {
    const mounts = c.volumeMounts?.filter((m) => !names.has(m.name));
    if (mounts === undefined || mounts.length === c.volumeMounts?.length) return;
    if (mounts.length > 0) c.volumeMounts = mounts;
    else delete c.volumeMounts;
  };
  for (const c of spec.containers) unmount(c);
  for (const c of spec.initContainers ?? []) unmount(c);
  for (const c of spec.ephemeralContainers ?? []) unmount(c);
}

function dropClusterTrustBundles(spec: PodSpec): void {
  for (const v of spec.volumes ?? []) for (const s of v.projected?.sources ?? []) delete s.clusterTrustBundle;
}

function dropResizePolicies(spec: PodSpec): void {
  for (const c of spec.containers) delete c.resizePolicy;
  for (const c of spec.initContainers ?? []) delete c.resizePolicy;
  for (const c of spec.ephemeralContainers ?? []) delete (c as { resizePolicy?: unknown }).resizePolicy;
}

/** The spec's part: `old` is the pod being updated, undefined on create. */
export function dropDisabledPodSpecFields(
  spec: PodSpec | undefined,
  old: PodSpec | undefined,
  gates: FeatureGates,
): void {
  if (spec === undefined) return;
  if (!gates.enabled('ImageVolume') && !imageVolumesInUse(old)) dropImageVolumes(spec);
  if (!gates.enabled('ClusterTrustBundleProjection') && !clusterTrustBundlesInUse(old))
    dropClusterTrustBundles(spec);
  if (!gates.enabled('InPlacePodVerticalScaling') && !resizePoliciesInUse(old)) dropResizePolicies(spec);
}

/** The statuses without the named members, copied only where one had them (they may be shared with the live object). */
function without<T extends object>(list: T[] | undefined, keys: readonly (keyof T)[]): T[] | undefined {
  if (list === undefined || !list.some((x) => keys.some((k) => x[k] !== undefined))) return list;
  return list.map((x) => {
    if (!keys.some((k) => x[k] !== undefined)) return x;
    const copy = { ...x };
    for (const k of keys) Reflect.deleteProperty(copy, k);
    return copy;
  });
}

/**
 * dropDisabledPodStatusFields: the resources kubelets report, and observed generations. The status
 * is rebuilt rather than changed in place: a patch shares the parts it left alone with the live pod.
 */
export function dropDisabledPodStatusFields(pod: Pod, old: Pod | undefined, gates: FeatureGates): void {
  const status = pod.status;
  if (status === undefined) return;
  const next: PodStatus = { ...status };
  if (!gates.enabled('InPlacePodVerticalScaling') && !resizePoliciesInUse(old?.spec)) {
    const reported = ['resources', 'allocatedResources'] as const;
    for (const key of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'] as const) {
      const list = without(status[key], reported);
      if (list !== undefined) next[key] = list;
    }
  }
  if (!gates.enabled('PodObservedGenerationTracking') && !observedGenerationInUse(old?.status)) {
    delete next.observedGeneration;
    const conditions = without(status.conditions, ['observedGeneration']);
    if (conditions !== undefined) next.conditions = conditions;
  }
  pod.status = next;
}

/**
 * A workload store's create and update strategies with DropDisabledTemplateFields before the
 * strategy's own preparation: what the gates turn off is dropped from the object's pod template as
 * from a pod (the workload's pods are made from it), unless the old template used it.
 */
export function templateStrategies<T extends KubeObject>(
  strategy: CreateStrategy<T> & UpdateStrategy<T>,
  gates: FeatureGates = FeatureGates.defaults(),
  templateOf: (obj: T) => PodTemplateSpec | undefined,
): { createStrategy: CreateStrategy<T>; updateStrategy: UpdateStrategy<T> } {
  const s: CreateStrategy<T> & UpdateStrategy<T> = {
    ...strategy,
    prepareForCreate: (ctx: RequestContext, obj: T) => {
      dropDisabledPodSpecFields(templateOf(obj)?.spec, undefined, gates);
      strategy.prepareForCreate(ctx, obj);
    },
    prepareForUpdate: (ctx: RequestContext, obj: T, old: T) => {
      const template = templateOf(obj)?.spec;
      const before = templateOf(old)?.spec;
      if (template !== before) dropDisabledPodSpecFields(template, before, gates);
      strategy.prepareForUpdate(ctx, obj, old);
    },
  };
  return { createStrategy: s, updateStrategy: s };
}
