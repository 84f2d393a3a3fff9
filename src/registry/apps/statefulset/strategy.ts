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

/** The status of a new StatefulSet: the two counters Go always writes. */
const emptyStatus = (): StatefulSetStatus => ({ replicas: 0, availableReplicas: 0 });

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
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, sts, old) => {
    setStatefulSetDefaults(sts);
    sts.status = old.status ?? emptyStatus();
  },
  validateUpdate: (_ctx, sts, old) => validateStatefulSetUpdate(sts, old),
  warningsOnUpdate: () => [],
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
} satisfies UpdateStrategy<StatefulSet>;

export const statefulSetDeleteStrategy = {} satisfies DeleteStrategy<StatefulSet>;
