// `kubectl get flowschemas` columns: NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE
// MISSINGPL (printFlowSchema in pkg/printers/internalversion/printers.go).
import type { FlowSchema } from '../../../api/flowcontrol/v1/flow-schema.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string) =>
  ({ name, type: 'string', format: '', description, priority: 0 }) as const;

export const flowSchemaTableConvertor: TableConvertor = tableConvertorFor<FlowSchema>({
  columns: [
    nameColumn,
    column('PriorityLevel', 'The name of the priority level configuration being referenced.'),
    column('MatchingPrecedence', 'Which of the FlowSchemas matching a request is chosen: the lowest.'),
    column('DistinguisherMethod', 'How the flow distinguisher of matching requests is computed.'),
    ageColumn,
    column('MissingPL', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells: (fs, now) => [
    fs.metadata?.name ?? '',
    fs.spec.priorityLevelConfiguration?.name ?? '',
    fs.spec.matchingPrecedence ?? 0,
    fs.spec.distinguisherMethod?.type ?? '<none>',
    translateTimestampSince(fs.metadata?.creationTimestamp, now),
    fs.status?.conditions?.find((c) => c.type === 'Dangling')?.status ?? '?',
  ],
});
