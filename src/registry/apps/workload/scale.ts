// The scale subresource of the apps workloads (scaleFromDeployment and its siblings in
// pkg/registry/apps/*/storage/storage.go): spec.replicas, status.replicas and the label selector in
// its string form (left out when empty); a write through it moves the ownership of spec.replicas
// in the workload's managedFields (their replicasPathIn* mappings: apps/v1's spec.replicas).
import type { KubeObject } from '../../../api/meta.js';
import type { LabelSelector } from '../../../api/meta/v1/label-selector.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/index.js';
import { ScaleREST, specReplicasPaths } from '../../generic/scale.js';
import type { Store } from '../../generic/store.js';

export function scaleSelector(ps: LabelSelector | undefined): { selector?: string } {
  const converted = labelSelectorAsSelector(ps);
  if (!converted.ok) return {};
  const text = converted.selector.toString();
  return text === '' ? {} : { selector: text };
}

/** What an apps workload's Scale reads and writes. */
interface Workload extends KubeObject {
  spec?: { replicas?: number; selector?: LabelSelector };
  status?: { replicas?: number };
}

/** The scale subresource of an apps/v1 workload. */
export function workloadScale<T extends Workload>(store: Store<T>): ScaleREST<T> {
  return new ScaleREST<T>({
    store,
    toScale: (w) => ({
      spec: { replicas: w.spec?.replicas ?? 0 },
      status: { replicas: w.status?.replicas ?? 0, ...scaleSelector(w.spec?.selector) },
    }),
    applyScale: (w, replicas) => {
      (w.spec ??= {}).replicas = replicas;
      return w;
    },
    replicasOwners: { apiVersion: 'apps/v1', paths: specReplicasPaths('apps/v1') },
  });
}
