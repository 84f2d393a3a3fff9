// `kubectl get endpointslices` columns: NAME ADDRESSTYPE PORTS ENDPOINTS AGE (printEndpointSlice,
// formatDiscoveryPorts, formatDiscoveryEndpoints in pkg/printers/internalversion/printers.go).
import type { EndpointSlice } from '../../../api/discovery/v1/endpoint-slice.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const max = 3;

/** listWithMoreString: the first three, then how many more; `<unset>` when there are none. */
function listWithMore(all: readonly string[]): string {
  const text = all.slice(0, max).join(',');
  if (all.length > max) return `${text} + ${String(all.length - max)} more...`;
  return text === '' ? '<unset>' : text;
}

export function formatDiscoveryPorts(slice: EndpointSlice): string {
  return listWithMore(
    (slice.ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : (p.name ?? '*'))),
  );
}

export function formatDiscoveryEndpoints(slice: EndpointSlice): string {
  return listWithMore((slice.endpoints ?? []).flatMap((e) => e.addresses));
}

const column = (name: string, description: string) =>
  ({ name, type: 'string', format: '', description, priority: 0 }) as const;

export const endpointSliceTableConvertor: TableConvertor = tableConvertorFor<EndpointSlice>({
  columns: [
    nameColumn,
    column('AddressType', 'The type of the addresses.'),
    column('Ports', 'The ports of the endpoints.'),
    column('Endpoints', 'The addresses of the endpoints.'),
    ageColumn,
  ],
  cells: (slice, now) => [
    slice.metadata?.name ?? '',
    slice.addressType,
    formatDiscoveryPorts(slice),
    formatDiscoveryEndpoints(slice),
    translateTimestampSince(slice.metadata?.creationTimestamp, now),
  ],
});
