// `kubectl get cronjobs` columns: NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE, wide:
// CONTAINERS IMAGES SELECTOR (printCronJob in pkg/printers/internalversion/printers.go).
import type { CronJob } from '../../../api/batch/v1/cron-job.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';
import {
  column,
  containerColumns,
  formatLabelSelector,
  layoutContainerCells,
  wideColumn,
} from '../../apps/workload/table-cells.js';

export const cronJobTableConvertor: TableConvertor = tableConvertorFor<CronJob>({
  columns: [
    nameColumn,
    column('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    column(
      'Timezone',
      'string',
      'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones',
    ),
    column(
      'Suspend',
      'boolean',
      'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.',
    ),
    column('Active', 'integer', 'A list of pointers to currently running jobs.'),
    column(
      'Last Schedule',
      'string',
      'Information when was the last time the job was successfully scheduled.',
    ),
    ageColumn,
    ...containerColumns,
    wideColumn(
      'Selector',
      'string',
      'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    ),
  ],
  cells: (cj, now) => {
    const spec = cj.spec ?? {};
    const jobSpec = spec.jobTemplate?.spec;
    const [names, images] = layoutContainerCells(jobSpec?.template?.spec?.containers);
    const last = cj.status?.lastScheduleTime;
    return [
      cj.metadata?.name ?? '',
      spec.schedule ?? '',
      spec.timeZone ?? '<none>',
      spec.suspend === undefined ? '<unset>' : String(spec.suspend),
      (cj.status?.active ?? []).length,
      last === undefined ? '<none>' : translateTimestampSince(last, now),
      translateTimestampSince(cj.metadata?.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(jobSpec?.selector),
    ];
  },
});
