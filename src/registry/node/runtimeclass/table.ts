// `kubectl get runtimeclasses` columns: NAME HANDLER AGE (printRuntimeClass in
// pkg/printers/internalversion/printers.go).
import type { RuntimeClass } from '../../../api/node/v1/runtime-class.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

export const runtimeClassTableConvertor: TableConvertor = tableConvertorFor<RuntimeClass>({
  columns: [
    nameColumn,
    {
      name: 'Handler',
      type: 'string',
      format: '',
      description: 'The CRI handler of the class.',
      priority: 0,
    },
    ageColumn,
  ],
  cells: (rc, now) => [
    rc.metadata?.name ?? '',
    rc.handler,
    translateTimestampSince(rc.metadata?.creationTimestamp, now),
  ],
});
