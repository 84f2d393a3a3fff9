// `kubectl get ipaddresses` columns: NAME PARENTREF (printIPAddress in
// pkg/printers/internalversion/printers.go). kube's printer also fills an age cell that no column
// names; kubectl shows the two named columns.
import type { IPAddress } from '../../../api/networking/v1/ip-address.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

/** `<resource>[.<group>][/<namespace>]/<name>`, lower-cased as kube prints the GroupResource. */
function parentRef(ip: IPAddress): string {
  const ref = ip.spec?.parentRef;
  if (ref === undefined) return '<none>';
  const gr = (ref.group ?? '') === '' ? ref.resource : `${ref.resource}.${ref.group ?? ''}`;
  const ns = (ref.namespace ?? '') === '' ? '' : `/${ref.namespace ?? ''}`;
  return `${gr.toLowerCase()}${ns}/${ref.name}`;
}

export const ipAddressTableConvertor: TableConvertor = tableConvertorFor<IPAddress>({
  columns: [
    nameColumn,
    {
      name: 'ParentRef',
      type: 'string',
      format: '',
      description:
        'ParentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object.',
      priority: 0,
    },
  ],
  cells: (ip, now) => [
    ip.metadata?.name ?? '',
    parentRef(ip),
    translateTimestampSince(ip.metadata?.creationTimestamp, now),
  ],
});
