// `kubectl get apiservices` columns: NAME SERVICE AVAILABLE AGE (the table convertor of
// k8s.io/kube-aggregator/pkg/registry/apiservice/etcd/etcd.go).
import type { APIService } from '../../../api/apiregistration/v1/api-service.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

/** "Local", or the service as namespace/name. */
function serviceCell(apiService: APIService): string {
  const s = apiService.spec.service ?? null;
  return s === null ? 'Local' : `${s.namespace ?? ''}/${s.name ?? ''}`;
}

/** The Available condition's status, with its reason when not True; Unknown without one. */
function availableCell(apiService: APIService): string {
  const c = apiService.status?.conditions?.find((x) => x.type === 'Available');
  if (c === undefined) return 'Unknown';
  return c.status === 'True' ? 'True' : `${c.status} (${c.reason ?? ''})`;
}

export const apiServiceTableConvertor: TableConvertor = tableConvertorFor<APIService>({
  columns: [
    nameColumn,
    {
      name: 'Service',
      type: 'string',
      format: '',
      description: 'The reference to the service that hosts this API endpoint.',
      priority: 0,
    },
    {
      name: 'Available',
      type: 'string',
      format: '',
      description: 'Whether this service is available.',
      priority: 0,
    },
    ageColumn,
  ],
  cells: (apiService, now) => [
    apiService.metadata?.name ?? '',
    serviceCell(apiService),
    availableCell(apiService),
    translateTimestampSince(apiService.metadata?.creationTimestamp, now),
  ],
});
