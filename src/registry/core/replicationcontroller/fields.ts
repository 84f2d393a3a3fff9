// ReplicationController field selectors (ControllerToSelectableFields and the v1 field label
// conversion): metadata.name, metadata.namespace and status.replicas.
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import type { TransformFunc } from '../../../machinery/fields/index.js';
import { mergeFieldsSets, objectMetaFieldsSet } from '../../generic/predicate.js';
import type { AttrFunc } from '../../rest/strategy.js';

const selectable = ['metadata.name', 'metadata.namespace', 'status.replicas'];

export const replicationControllerAttrs: AttrFunc<ReplicationController> = (rc) => ({
  labels: rc.metadata?.labels ?? {},
  fields: mergeFieldsSets(objectMetaFieldsSet(rc.metadata, true), {
    'status.replicas': String(rc.status?.replicas ?? 0),
  }),
});

export const replicationControllerFieldLabelConversion: TransformFunc = (field, value) =>
  selectable.includes(field)
    ? { ok: true, field, value }
    : { ok: false, message: `field label not supported: ${field}` };
