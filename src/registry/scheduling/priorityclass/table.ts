// `kubectl get priorityclasses` columns: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY
// (printPriorityClass in pkg/printers/internalversion/printers.go).
import type { PriorityClass } from '../../../api/scheduling/v1/priority-class.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

export const priorityClassTableConvertor: TableConvertor = tableConvertorFor<PriorityClass>({
  columns: [
    nameColumn,
    {
      name: 'Value',
      type: 'integer',
      format: '',
      description: 'The priority of pods of this class.',
      priority: 0,
    },
    {
      name: 'Global-Default',
      type: 'boolean',
      format: '',
      description: 'Whether pods without a priority class get this one.',
      priority: 0,
    },
    ageColumn,
    {
      name: 'PreemptionPolicy',
      type: 'string',
      format: '',
      description: 'Whether pods of this class may preempt lower priority pods.',
      priority: 0,
    },
  ],
  cells: (pc, now) => [
    pc.metadata?.name ?? '',
    pc.value,
    pc.globalDefault ?? false,
    translateTimestampSince(pc.metadata?.creationTimestamp, now),
    pc.preemptionPolicy ?? '',
  ],
});
