// `kubectl get configmaps` columns: NAME DATA AGE (pkg/printers/internalversion/printers.go).
import type { ConfigMap } from '../../../api/core/v1/config-map.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

/** apiv1.ConfigMap{}.SwaggerDoc()["data"]. */
const dataDescription =
  "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.";

export const configMapTableConvertor: TableConvertor = tableConvertorFor<ConfigMap>({
  columns: [
    nameColumn,
    { name: 'Data', type: 'string', format: '', description: dataDescription, priority: 0 },
    ageColumn,
  ],
  cells: (cm, now) => [
    cm.metadata?.name ?? '',
    Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
    translateTimestampSince(cm.metadata?.creationTimestamp, now),
  ],
});
