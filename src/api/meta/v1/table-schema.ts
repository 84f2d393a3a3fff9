// meta.k8s.io/v1 Table (interfaces in src/api/table.ts).
import type { APIModule } from '../../schema/api-module.js';
import { metaV1, runtimeDef } from '../../schema/api-module.js';
import { arrayOf, atomicList, int32, ref, str, struct } from '../../schema/builders.js';
import { LIST_META } from './list-meta.js';

export const TABLE = metaV1('Table');
export const TABLE_COLUMN_DEFINITION = metaV1('TableColumnDefinition');
export const TABLE_ROW = metaV1('TableRow');
export const TABLE_ROW_CONDITION = metaV1('TableRowCondition');

export const tableModule: APIModule = {
  definitions: {
    [TABLE]: struct(
      'Objects rendered as rows and columns for display.',
      {
        apiVersion: str('Versioned schema of this representation.'),
        columnDefinitions: atomicList(ref(TABLE_COLUMN_DEFINITION), 'The columns of every row.'),
        kind: str('REST resource this object represents.'),
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
        rows: atomicList(ref(TABLE_ROW), 'One row per object.'),
      },
      { required: ['columnDefinitions', 'rows'] },
    ),
    [TABLE_COLUMN_DEFINITION]: struct(
      'Name, type and importance of a column.',
      {
        description: str('What the column shows.'),
        format: str('Optional hint on how to read the value, as in OpenAPI formats.'),
        name: str('Column header.'),
        priority: int32('Zero for the most important columns; larger numbers may be hidden.'),
        type: str('OpenAPI type of the cells.'),
      },
      { required: ['name', 'type', 'format', 'description', 'priority'] },
    ),
    [TABLE_ROW]: struct(
      'One object as a row of cells.',
      {
        cells: atomicList(
          { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          'Cell values, one per column.',
        ),
        conditions: arrayOf(ref(TABLE_ROW_CONDITION), 'Conditions that apply to the row.', {
          'x-kubernetes-list-type': 'atomic',
        }),
        object: ref(runtimeDef('RawExtension'), 'The object or its metadata, as includeObject asked.'),
      },
      { required: ['cells'] },
    ),
    [TABLE_ROW_CONDITION]: struct(
      'A condition of a row.',
      {
        message: str('Human-readable detail.'),
        reason: str('Machine-readable reason for the last transition.'),
        status: str('True, False or Unknown.'),
        type: str('Type of the condition, e.g. Completed.'),
      },
      { required: ['type', 'status'] },
    ),
  },
  kinds: [{ group: 'meta.k8s.io', version: 'v1', kind: 'Table', definition: TABLE }],
  goTypes: {
    [TABLE_ROW]: { cells: '[]interface {}' },
    [TABLE_ROW_CONDITION]: { type: 'v1.RowConditionType', status: 'v1.ConditionStatus' },
  },
};
