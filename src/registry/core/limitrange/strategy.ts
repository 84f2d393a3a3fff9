// LimitRange policy (pkg/registry/core/limitrange/strategy.go): defaults, validation, nothing else.
import type { LimitRange } from '../../../api/core/v1/limit-range.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { setLimitRangeDefaults } from './defaults.js';
import { validateLimitRange, validateLimitRangeUpdate } from './validation.js';

export const limitRangeStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  defaultDecoded: setLimitRangeDefaults,
  prepareForCreate: (_ctx, lr) => {
    setLimitRangeDefaults(lr);
  },
  validate: (_ctx, lr) => validateLimitRange(lr),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, lr) => {
    setLimitRangeDefaults(lr);
  },
  validateUpdate: (_ctx, lr, old) => validateLimitRangeUpdate(lr, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<LimitRange> & UpdateStrategy<LimitRange>;

/** LimitRanges are deleted at once. */
export const limitRangeDeleteStrategy = {} satisfies DeleteStrategy<LimitRange>;
