// StatefulSet policy (pkg/registry/apps/statefulset/strategy.go): create resets the status, spec
// changes bump the generation, /status keeps spec and labels.
import type { StatefulSet, StatefulSetStatus } from '../../../api/apps/v1/stateful-set.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  setStatefulSetDefaults,
  validateStatefulSet,
  validateStatefulSetStatusUpdate,
  validateStatefulSetUpdate,
} from './validation.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForPodTemplate } from '../../core/pod/warnings.js';
import { warningsForPersistentVolumeClaimSpec } from '../../core/persistentvolumeclaim/warnings.js';

/** The status of a new StatefulSet: the two counters Go always writes. */
const emptyStatus = (): StatefulSetStatus => ({ replicas: 0, availableReplicas: 0 });

const templatePath = FieldPath.of('spec', 'template');

/**
 * WarningsOnCreate and WarningsOnUpdate: the template's warnings (on update, only once the generation
 * moved), the claim templates' and a negative history limit's. kube's update path names a claim
 * template's spec `Spec`, its create path not at all; Capstan prints both as kube does.
 */
function statefulSetWarnings(
  sts: StatefulSet,
  when: { templateChanged: boolean; onCreate: boolean },
): string[] {
  const warnings = when.templateChanged ? warningsForPodTemplate(templatePath, sts.spec?.template) : [];
  (sts.spec?.volumeClaimTemplates ?? []).forEach((pvc, i) => {
    const at = FieldPath.of('spec', 'volumeClaimTemplates').index(i);
    warnings.push(...warningsForPersistentVolumeClaimSpec(when.onCreate ? at : at.child('Spec'), pvc.spec));
  });
  if ((sts.spec?.revisionHistoryLimit ?? 0) < 0)
    warnings.push(
      'spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended',
    );
  return warnings;
}

export const statefulSetStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setStatefulSetDefaults,
  prepareForCreate: (_ctx, sts) => {
    setStatefulSetDefaults(sts);
    sts.status = emptyStatus();
  },
  validate: (_ctx, sts) => validateStatefulSet(sts),
  warningsOnCreate: (_ctx, sts) => statefulSetWarnings(sts, { templateChanged: true, onCreate: true }),
  prepareForUpdate: (_ctx, sts, old) => {
    setStatefulSetDefaults(sts);
    sts.status = old.status ?? emptyStatus();
  },
  validateUpdate: (_ctx, sts, old) => validateStatefulSetUpdate(sts, old),
  warningsOnUpdate: (_ctx, sts, old) =>
    statefulSetWarnings(sts, {
      templateChanged: sts.metadata?.generation !== old.metadata?.generation,
      onCreate: false,
    }),
} satisfies CreateStrategy<StatefulSet> & UpdateStrategy<StatefulSet>;

export const statefulSetStatusStrategy = {
  ...statefulSetStrategy,
  prepareForUpdate: (_ctx, sts, old) => {
    sts.spec = old.spec ?? {};
    const meta = (sts.metadata ??= {});
    if (old.metadata?.labels !== undefined) meta.labels = old.metadata.labels;
    else delete meta.labels;
  },
  validateUpdate: (_ctx, sts, old) => validateStatefulSetStatusUpdate(sts, old),
  warningsOnUpdate: () => [],
} satisfies UpdateStrategy<StatefulSet>;

export const statefulSetDeleteStrategy = {} satisfies DeleteStrategy<StatefulSet>;
