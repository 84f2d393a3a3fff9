// PriorityLevelConfiguration policy (pkg/registry/flowcontrol/prioritylevelconfiguration/strategy.go):
// cluster-scoped, status kept apart from the spec, kube's v1 defaults
// (pkg/apis/flowcontrol/v1/defaults.go) for objects that did not come through the decoder.
import {
  priorityLevelDefaults as d,
  type PriorityLevelConfiguration,
} from '../../../api/flowcontrol/v1/priority-level-configuration.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  validatePriorityLevelConfiguration,
  validatePriorityLevelConfigurationStatus,
} from './validation.js';

export function setPriorityLevelDefaults(pl: PriorityLevelConfiguration): void {
  const { exempt, limited } = pl.spec;
  if (exempt !== undefined) {
    exempt.nominalConcurrencyShares ??= d.exemptNominalConcurrencyShares;
    exempt.lendablePercent ??= d.lendablePercent;
  }
  if (limited === undefined) return;
  limited.nominalConcurrencyShares ??= d.limitedNominalConcurrencyShares;
  limited.lendablePercent ??= d.lendablePercent;
  const q = limited.limitResponse?.queuing;
  if (q === undefined) return;
  if ((q.handSize ?? 0) === 0) q.handSize = d.handSize;
  if ((q.queues ?? 0) === 0) q.queues = d.queues;
  if ((q.queueLengthLimit ?? 0) === 0) q.queueLengthLimit = d.queueLengthLimit;
}

export const priorityLevelStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setPriorityLevelDefaults,
  prepareForCreate: (_ctx, pl) => {
    delete pl.status;
    setPriorityLevelDefaults(pl);
  },
  validate: (_ctx, pl) => validatePriorityLevelConfiguration(pl),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, pl, old) => {
    if (old.status !== undefined) pl.status = old.status;
    else delete pl.status;
    setPriorityLevelDefaults(pl);
  },
  validateUpdate: (_ctx, pl) => validatePriorityLevelConfiguration(pl),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<PriorityLevelConfiguration> & UpdateStrategy<PriorityLevelConfiguration>;

/** prioritylevelconfigurations/status: takes the status, keeps the spec. */
export const priorityLevelStatusStrategy = {
  ...priorityLevelStrategy,
  prepareForUpdate: (_ctx, pl, old) => {
    pl.spec = old.spec;
  },
  validateUpdate: (_ctx, pl) => validatePriorityLevelConfigurationStatus(pl),
} satisfies UpdateStrategy<PriorityLevelConfiguration>;

export const priorityLevelDeleteStrategy = {} satisfies DeleteStrategy<PriorityLevelConfiguration>;
