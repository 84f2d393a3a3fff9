// `kubectl get resourcequotas` columns: NAME AGE REQUEST LIMIT (printResourceQuota in
// pkg/printers/internalversion/printers.go): `resource: used/hard` per enforced limit, the
// `limits.*` ones under LIMIT, the others under REQUEST.
import type { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';
import { sortedResources } from './resource-names.js';

function usage(quota: ResourceQuota): { request: string; limit: string } {
  const request: string[] = [];
  const limit: string[] = [];
  for (const [name, hard] of sortedResources(quota.status?.hard)) {
    const pieces = name.split('.');
    const target = pieces.length > 1 && pieces[0] === 'limits' ? limit : request;
    target.push(`${name}: ${quota.status?.used?.[name] ?? '0'}/${hard}`);
  }
  return { request: request.join(', '), limit: limit.join(', ') };
}

export const resourceQuotaTableConvertor: TableConvertor = tableConvertorFor<ResourceQuota>({
  columns: [
    nameColumn,
    ageColumn,
    {
      name: 'Request',
      type: 'string',
      format: '',
      description: 'Request represents a minimum amount of cpu/memory that a container may consume.',
      priority: 0,
    },
    {
      name: 'Limit',
      type: 'string',
      format: '',
      description:
        'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
      priority: 0,
    },
  ],
  cells: (quota, now) => {
    const { request, limit } = usage(quota);
    return [
      quota.metadata?.name ?? '',
      translateTimestampSince(quota.metadata?.creationTimestamp, now),
      request,
      limit,
    ];
  },
});
