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
import { FieldPath } from '../../../machinery/validation/index.js';
import { workloadNameWarnings } from '../../core/pod/warnings.js';
import { warningsForJobSpec } from '../job/warnings.js';

const jobSpecPath = FieldPath.of('spec', 'jobTemplate', 'spec');

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
  warningsOnCreate: (_ctx, cj) =>
    workloadNameWarnings(cj.metadata?.name).concat(
      warningsForJobSpec(jobSpecPath, cj.spec?.jobTemplate?.spec),
    ),
  prepareForUpdate: (_ctx, cj, old) => {
    setCronJobDefaults(cj);
    cj.status = old.status ?? {};
  },
  validateUpdate: (_ctx, cj, old) => validateCronJobUpdate(cj, old),
  warningsOnUpdate: (_ctx, cj, old) => {
    const warnings =
      cj.metadata?.generation !== old.metadata?.generation
        ? warningsForJobSpec(jobSpecPath, cj.spec?.jobTemplate?.spec)
        : [];
    // Validation refuses TZ in a new schedule but keeps an old one; kube's path says spec.spec.
    if ((cj.spec?.schedule ?? '').includes('TZ'))
      warnings.push(
        'cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details',
      );
    return warnings;
  },
} satisfies CreateStrategy<CronJob> & UpdateStrategy<CronJob>;

export const cronJobStatusStrategy = {
  ...cronJobStrategy,
  prepareForUpdate: (_ctx, cj, old) => {
    cj.spec = old.spec ?? {};
  },
  validateUpdate: (_ctx, cj, old) => validateCronJobStatusUpdate(cj, old),
  warningsOnUpdate: () => [],
} satisfies UpdateStrategy<CronJob>;

export const cronJobDeleteStrategy = {} satisfies DeleteStrategy<CronJob>;
