// ReplicaSet policy (pkg/registry/apps/replicaset/strategy.go): create resets the status, spec
// changes bump the generation, /status keeps spec and labels. Field selector: status.replicas.
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import type { TransformFunc } from '../../../machinery/fields/index.js';
import { mergeFieldsSets, objectMetaFieldsSet } from '../../generic/predicate.js';
import type { AttrFunc, CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  setReplicaSetDefaults,
  validateReplicaSet,
  validateReplicaSetStatusUpdate,
  validateReplicaSetUpdate,
} from './validation.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForPodTemplate, workloadNameWarnings } from '../../core/pod/warnings.js';

const templatePath = FieldPath.of('spec', 'template');

export const replicaSetStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setReplicaSetDefaults,
  prepareForCreate: (_ctx, rs) => {
    setReplicaSetDefaults(rs);
    rs.status = { replicas: 0 };
  },
  validate: (_ctx, rs) => validateReplicaSet(rs),
  warningsOnCreate: (_ctx, rs) =>
    workloadNameWarnings(rs.metadata?.name).concat(warningsForPodTemplate(templatePath, rs.spec?.template)),
  prepareForUpdate: (_ctx, rs, old) => {
    setReplicaSetDefaults(rs);
    rs.status = old.status ?? { replicas: 0 };
  },
  validateUpdate: (_ctx, rs, old) => validateReplicaSetUpdate(rs, old),
  warningsOnUpdate: (_ctx, rs, old) =>
    rs.metadata?.generation !== old.metadata?.generation
      ? warningsForPodTemplate(templatePath, rs.spec?.template)
      : [],
} satisfies CreateStrategy<ReplicaSet> & UpdateStrategy<ReplicaSet>;

export const replicaSetStatusStrategy = {
  ...replicaSetStrategy,
  prepareForUpdate: (_ctx, rs, old) => {
    rs.spec = old.spec ?? {};
    const meta = (rs.metadata ??= {});
    if (old.metadata?.labels !== undefined) meta.labels = old.metadata.labels;
    else delete meta.labels;
  },
  validateUpdate: (_ctx, rs, old) => validateReplicaSetStatusUpdate(rs, old),
  warningsOnUpdate: () => [],
} satisfies UpdateStrategy<ReplicaSet>;

export const replicaSetDeleteStrategy = {} satisfies DeleteStrategy<ReplicaSet>;

/** ReplicaSetToSelectableFields: the object meta fields and status.replicas. */
export const replicaSetAttrs: AttrFunc<ReplicaSet> = (rs) => ({
  labels: rs.metadata?.labels ?? {},
  fields: mergeFieldsSets(objectMetaFieldsSet(rs.metadata, true), {
    'status.replicas': String(rs.status?.replicas ?? 0),
  }),
});

/** The apps/v1 ReplicaSet field label conversion. */
export const replicaSetFieldLabelConversion: TransformFunc = (field, value) =>
  field === 'metadata.name' || field === 'metadata.namespace' || field === 'status.replicas'
    ? { ok: true, field, value }
    : { ok: false, message: `field label not supported: ${field}` };
