// `kubectl get endpoints` columns: NAME ENDPOINTS AGE (printEndpoints and formatEndpoints in
// pkg/printers/internalversion/printers.go).
import type { Endpoints } from '../../../api/core/v1/endpoints.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const shown = 3;

/** net.JoinHostPort: IPv6 hosts go in brackets. */
const joinHostPort = (host: string, port: number): string =>
  host.includes(':') ? `[${host}]:${String(port)}` : `${host}:${String(port)}`;

/** Up to three `ip:port` entries (bare IPs for subsets without ports), then how many more. */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let count = 0;
  const add = (entry: string): void => {
    if (list.length < shown) list.push(entry);
  };
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) add(a.ip);
      continue;
    }
    for (const p of ports) {
      count += addresses.length;
      for (const a of addresses) add(joinHostPort(a.ip, p.port));
    }
  }
  const joined = list.join(',');
  return count > shown ? `${joined} + ${String(count - shown)} more...` : joined;
}

export const endpointsTableConvertor: TableConvertor = tableConvertorFor<Endpoints>({
  columns: [
    nameColumn,
    {
      name: 'Endpoints',
      type: 'string',
      format: '',
      description: 'The addresses and ports that implement the service.',
      priority: 0,
    },
    ageColumn,
  ],
  cells: (ep, now) => [
    ep.metadata?.name ?? '',
    formatEndpoints(ep),
    translateTimestampSince(ep.metadata?.creationTimestamp, now),
  ],
});
