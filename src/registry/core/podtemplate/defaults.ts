// The v1 defaults of a pod template's spec (SetDefaults_PodSpec and SetDefaults_Container reach
// every PodTemplateSpec, as kube's generated defaulters do), shared by the workload kinds.
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { PodSpec } from '../../../api/core/v1/pod.js';
import { setPodDefaults } from '../pod/defaults.js';

/** Fills the pod defaults of `template.spec` in place. */
export function setPodTemplateSpecDefaults(template: PodTemplateSpec): void {
  const holder: { spec?: PodSpec } = template.spec === undefined ? {} : { spec: template.spec };
  setPodDefaults(holder);
  if (holder.spec !== undefined) template.spec = holder.spec;
}
