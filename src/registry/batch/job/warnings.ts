// WarningsForJobSpec (pkg/api/job/warnings.go, kube 1.33), shared by Jobs and CronJobs' job
// templates: an Indexed job too large for its failed indexes to be tracked, then its pod template's
// warnings.
import type { JobSpec } from '../../../api/batch/v1/job.js';
import type { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForPodTemplate } from '../../core/pod/warnings.js';

const completionsSoftLimit = 100_000;
const parallelismSoftLimitForUnlimitedCompletions = 10_000;

/** The warnings for the job spec at `path` (`spec`, or a CronJob's `spec.jobTemplate.spec`). */
export function warningsForJobSpec(path: FieldPath, spec: JobSpec | undefined): string[] {
  const warnings: string[] = [];
  if (
    spec?.completionMode === 'Indexed' &&
    (spec.completions ?? 0) > completionsSoftLimit &&
    (spec.parallelism ?? 0) > parallelismSoftLimitForUnlimitedCompletions
  )
    warnings.push(
      `${path.toString()}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`,
    );
  warnings.push(...warningsForPodTemplate(path.child('template'), spec?.template));
  return warnings;
}
