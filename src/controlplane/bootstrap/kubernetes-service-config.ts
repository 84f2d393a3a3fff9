// The service networking flags as the storage provider and the bootstrap hook take them:
// --service-cluster-ip-range and --service-node-port-range parsed (option validation has already
// refused bad values), the `kubernetes` service's IP, and this server's endpoint.
import { formatIP, parseIP } from '../../registry/core/service/ip-net.js';
import { parsePortRange, type PortRange } from '../../registry/core/service/port-range.js';
import {
  parseServiceClusterIPRange,
  type ServiceIPRanges,
} from '../../registry/core/service/service-ip-ranges.js';

export interface ServiceNetworkingFlags {
  readonly serviceClusterIPRange: string;
  readonly serviceNodePortRange: string;
  readonly bindAddress: string;
  readonly securePort: number;
  readonly insecurePort: number;
  /** --advertise-address: this server's address in the endpoints, when given. */
  readonly advertiseAddress?: string;
  /** The port the server listens on, once it does (a free one for `--secure-port 0`). */
  readonly boundPort?: () => number;
}

export interface ServiceNetworking {
  readonly serviceIPRanges: ServiceIPRanges;
  readonly nodePortRange: PortRange;
  /** The first address of the primary range (kube's APIServerServiceIP). */
  readonly serviceIP: string;
  /** Read once the server listens (post-start hooks). */
  readonly servingPort: () => number;
  readonly endpointIP: string;
}

export function serviceNetworkingFor(o: ServiceNetworkingFlags): ServiceNetworking {
  const parsed = parseServiceClusterIPRange(o.serviceClusterIPRange);
  if (parsed.ranges === undefined) throw new Error(parsed.errors.join('\n'));
  const primary = parsed.ranges.primary;
  const bind = parseIP(o.bindAddress);
  // An unspecified bind address says nothing of how clients reach us: loopback, as kube's
  // single-host default would resolve.
  const advertised = o.advertiseAddress ?? '';
  const endpointIP =
    advertised !== '' ? advertised : bind === undefined || bind.value === 0n ? '127.0.0.1' : o.bindAddress;
  const configured = o.securePort > 0 ? o.securePort : o.insecurePort > 0 ? o.insecurePort : 443;
  const servingPort = o.boundPort ?? ((): number => configured);
  return {
    serviceIPRanges: parsed.ranges,
    nodePortRange: parsePortRange(o.serviceNodePortRange),
    serviceIP: formatIP(primary.family, primary.base + 1n),
    servingPort,
    endpointIP,
  };
}
