// SetDefaults_ReplicationController (pkg/apis/core/v1/defaults.go): the selector and the object's
// labels from the template's labels when empty, one replica when unset, and the pod defaults of
// the template's spec.
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import { setPodTemplateSpecDefaults } from '../podtemplate/defaults.js';

/** Fills the defaults in place. */
export function setReplicationControllerDefaults(rc: ReplicationController): void {
  const spec = (rc.spec ??= {});
  const labels = spec.template?.metadata?.labels;
  if (labels !== undefined) {
    if (Object.keys(spec.selector ?? {}).length === 0) spec.selector = { ...labels };
    const meta = (rc.metadata ??= {});
    if (Object.keys(meta.labels ?? {}).length === 0) meta.labels = { ...labels };
  }
  spec.replicas ??= 1;
  if (spec.template !== undefined) setPodTemplateSpecDefaults(spec.template);
}
