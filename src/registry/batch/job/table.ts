// `kubectl get jobs` columns: NAME STATUS COMPLETIONS DURATION AGE, wide: CONTAINERS IMAGES SELECTOR
// (printJob in pkg/printers/internalversion/printers.go, 1.33).
import type { Job } from '../../../api/batch/v1/job.js';
import { isConditionTrue } from './job-condition-state.js';
import { humanDuration, translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';
import {
  column,
  containerColumns,
  formatLabelSelector,
  layoutContainerCells,
  wideColumn,
} from '../../apps/workload/table-cells.js';

/** The STATUS cell. */
export function jobStatusCell(job: Job): string {
  const conditions = job.status?.conditions;
  if (isConditionTrue(conditions, 'Complete')) return 'Complete';
  if (isConditionTrue(conditions, 'Failed')) return 'Failed';
  if ((job.metadata?.deletionTimestamp ?? '') !== '') return 'Terminating';
  if (isConditionTrue(conditions, 'Suspended')) return 'Suspended';
  if (isConditionTrue(conditions, 'FailureTarget')) return 'FailureTarget';
  if (isConditionTrue(conditions, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

/** The COMPLETIONS cell: succeeded/completions, or succeeded/1 (of parallelism) for work queues. */
export function jobCompletionsCell(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  const completions = job.spec?.completions;
  if (completions !== undefined) return `${succeeded}/${completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function durationCell(job: Job, now: number): string {
  const start = job.status?.startTime;
  if (start === undefined) return '';
  const end = job.status?.completionTime;
  const endMs = end === undefined ? now : Date.parse(end);
  return humanDuration(endMs - Date.parse(start));
}

export const jobTableConvertor: TableConvertor = tableConvertorFor<Job>({
  columns: [
    nameColumn,
    column('Status', 'string', 'Status of the job.'),
    column(
      'Completions',
      'string',
      'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.',
    ),
    column('Duration', 'string', 'Time required to complete the job.'),
    ageColumn,
    ...containerColumns,
    wideColumn(
      'Selector',
      'string',
      'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    ),
  ],
  cells: (job, now) => {
    const [names, images] = layoutContainerCells(job.spec?.template?.spec?.containers);
    return [
      job.metadata?.name ?? '',
      jobStatusCell(job),
      jobCompletionsCell(job),
      durationCell(job, now),
      translateTimestampSince(job.metadata?.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(job.spec?.selector),
    ];
  },
});
