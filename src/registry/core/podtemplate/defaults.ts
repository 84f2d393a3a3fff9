// The v1 defaults of a pod template's spec (SetDefaults_PodSpec, _Container, _Volume and the rest
// reach every PodTemplateSpec, as kube's generated defaulters do; SetDefaults_Pod does not), shared
// by the workload kinds.
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import { setPodSpecDefaults } from '../pod/defaults.js';

/** Fills the pod spec defaults of `template.spec` in place. */
export function setPodTemplateSpecDefaults(template: PodTemplateSpec): void {
  setPodSpecDefaults((template.spec ??= { containers: [] }));
}
