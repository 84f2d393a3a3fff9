// `kubectl get secrets` columns: NAME TYPE DATA AGE (pkg/printers/internalversion/printers.go).
import type { Secret } from '../../../api/core/v1/secret.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

/** apiv1.Secret{}.SwaggerDoc()["type"]. */
const typeDescription =
  'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types';

/** apiv1.Secret{}.SwaggerDoc()["data"]. */
const dataDescription =
  "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4";

export const secretTableConvertor: TableConvertor = tableConvertorFor<Secret>({
  columns: [
    nameColumn,
    { name: 'Type', type: 'string', format: '', description: typeDescription, priority: 0 },
    { name: 'Data', type: 'string', format: '', description: dataDescription, priority: 0 },
    ageColumn,
  ],
  cells: (secret, now) => [
    secret.metadata?.name ?? '',
    secret.type ?? '',
    Object.keys(secret.data ?? {}).length,
    translateTimestampSince(secret.metadata?.creationTimestamp, now),
  ],
});
