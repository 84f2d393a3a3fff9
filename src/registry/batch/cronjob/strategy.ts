// CronJob policy (pkg/registry/batch/cronjob/strategy.go): create resets the status, spec changes
// bump the generation, /status keeps the spec.
import type { CronJob } from '../../../api/batch/v1/cron-job.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  setCronJobDefaults,
  validateCronJob,
  validateCronJobStatusUpdate,
  validateCronJobUpdate,
} from './validation.js';

export const cronJobStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setCronJobDefaults,
  prepareForCreate: (_ctx, cj) => {
    setCronJobDefaults(cj);
    cj.status = {};
  },
  validate: (_ctx, cj) => validateCronJob(cj),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, cj, old) => {
    setCronJobDefaults(cj);
    cj.status = old.status ?? {};
  },
  validateUpdate: (_ctx, cj, old) => validateCronJobUpdate(cj, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<CronJob> & UpdateStrategy<CronJob>;

export const cronJobStatusStrategy = {
  ...cronJobStrategy,
  prepareForUpdate: (_ctx, cj, old) => {
    cj.spec = old.spec ?? {};
  },
  validateUpdate: (_ctx, cj, old) => validateCronJobStatusUpdate(cj, old),
} satisfies UpdateStrategy<CronJob>;

export const cronJobDeleteStrategy = {} satisfies DeleteStrategy<CronJob>;
