// `kubectl get servicecidrs` columns: NAME CIDRS AGE (printServiceCIDR in
// pkg/printers/internalversion/printers.go).
import type { ServiceCIDR } from '../../../api/networking/v1/service-cidr.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

export const serviceCIDRTableConvertor: TableConvertor = tableConvertorFor<ServiceCIDR>({
  columns: [
    nameColumn,
    {
      name: 'CIDRs',
      type: 'string',
      format: '',
      description:
        'CIDRs defines the IP blocks in CIDR notation (e.g. "192.168.0.0/24" or "2001:db8::/64") from which to assign service cluster IPs. Max of two CIDRs is allowed, one of each IP family. Conversion from single-stack to dual-stack is allowed, but not the reverse. This field is immutable.',
      priority: 0,
    },
    ageColumn,
  ],
  cells: (cidr, now) => [
    cidr.metadata?.name ?? '',
    (cidr.spec?.cidrs ?? []).join(','),
    translateTimestampSince(cidr.metadata?.creationTimestamp, now),
  ],
});
