// `kubectl get flowschemas` columns: NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE
// MISSINGPL (printFlowSchema in pkg/printers/internalversion/printers.go), in matching order.
import type { FlowSchema } from '../../../api/flowcontrol/v1/flow-schema.js';
import { compareFlowSchemas } from '../../../api/flowcontrol/v1/flow-schema-order.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string) =>
  ({ name, type: 'string', format: '', description, priority: 0 }) as const;

const rowsConvertor: TableConvertor = tableConvertorFor<FlowSchema>({
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

/** A list's rows come in matching order, as printFlowSchemaList sorts them. */
export const flowSchemaTableConvertor: TableConvertor = {
  convertToTable(ctx, obj, opts) {
    const items = (obj as { items?: unknown }).items;
    if (!Array.isArray(items)) return rowsConvertor.convertToTable(ctx, obj, opts);
    const sorted = [...(items as FlowSchema[])].sort(compareFlowSchemas);
    return rowsConvertor.convertToTable(ctx, { ...obj, items: sorted }, opts);
  },
};
