// The port passes of pkg/api/pod/warnings.go (1.33), over the ports of every container in visiting
// order: a host IP without a host port, two ports of one number and protocol that bind the same or
// overlapping host addresses, and a port name used twice (services and probes pick the first).
import type { ContainerPort } from '../../../api/core/v1/container.js';
import { goQuote, type FieldPath } from '../../../machinery/validation/index.js';
import type { PodWarningWalk } from './warnings-containers.js';

/** Where a container sits: its list and its index there. */
export interface ContainerAt {
  readonly list: 'initContainers' | 'containers' | 'ephemeralContainers';
  readonly index: number;
}

/** A container port and where it sits. */
export interface PortAt {
  readonly port: ContainerPort;
  readonly container: ContainerAt;
  readonly index: number;
}

export const containerPath = (walk: Pick<PodWarningWalk, 'specPath'>, at: ContainerAt): FieldPath =>
  walk.specPath().child(at.list).index(at.index);

const portPath = (walk: PodWarningWalk, at: PortAt): string =>
  containerPath(walk, at.container).child('ports').index(at.index).toString();

/** Up to this many ports a scan finds the earlier ones with the same key; beyond it, a map. */
const portScanLimit = 16;

/**
 * The pairs [later, earlier] of positions holding the same key ('' matches nothing), ordered by the
 * later position, then the earlier: kube's map of earlier ports, without a map for the usual few.
 */
function equalKeyPairs(keys: readonly string[]): (readonly [number, number])[] {
  const pairs: (readonly [number, number])[] = [];
  if (keys.length <= portScanLimit) {
    for (let j = 1; j < keys.length; j++)
      for (let k = 0; k < j; k++) if (keys[j] !== '' && keys[k] === keys[j]) pairs.push([j, k]);
    return pairs;
  }
  const seen = new Map<string, number[]>();
  keys.forEach((key, j) => {
    if (key === '') return;
    const earlier = seen.get(key);
    if (earlier === undefined) seen.set(key, [j]);
    else {
      for (const k of earlier) pairs.push([j, k]);
      earlier.push(j);
    }
  });
  return pairs;
}

/** Go's %+v of the internal core.ContainerPort. */
const goPort = (p: ContainerPort): string =>
  `{Name:${p.name ?? ''} HostPort:${p.hostPort ?? 0} ContainerPort:${p.containerPort} Protocol:${p.protocol ?? ''} HostIP:${p.hostIP ?? ''}}`;

/** How a port relates to an earlier one of the same number and protocol, when it is a problem. */
function portConflict(port: ContainerPort, other: ContainerPort): string | undefined {
  const [hostPort, otherHostPort] = [port.hostPort ?? 0, other.hostPort ?? 0];
  const [hostIP, otherHostIP] = [port.hostIP ?? '', other.hostIP ?? ''];
  if (hostIP === otherHostIP && hostPort === otherHostPort) return 'duplicate';
  if (hostPort === 0 || otherHostPort === 0) return 'overlapping';
  // The same host port, bound to one address by one and to every address by the other.
  if (hostPort === otherHostPort && (hostIP === '') !== (otherHostIP === '')) return 'dangerously ambiguous';
  return undefined;
}

/** Host IPs without host ports, and ports that collide with earlier ones. */
export function warnPorts(walk: PodWarningWalk, ports: readonly PortAt[]): void {
  const pairs = equalKeyPairs(ports.map((at) => `${at.port.containerPort}/${at.port.protocol ?? ''}`));
  let next = 0;
  ports.forEach((at, j) => {
    const port = at.port;
    if ((port.hostIP ?? '') !== '' && (port.hostPort ?? 0) === 0)
      walk.warnings.push(`${portPath(walk, at)}: hostIP set without hostPort: ${goPort(port)}`);
    for (let pair = pairs[next]; pair !== undefined && pair[0] === j; pair = pairs[++next]) {
      const other = ports[pair[1]];
      const conflict = other === undefined ? undefined : portConflict(port, other.port);
      if (other !== undefined && conflict !== undefined)
        walk.warnings.push(
          `${portPath(walk, at)}: ${conflict} port definition with ${portPath(walk, other)}`,
        );
    }
  });
}

/** Port names used before: each later use is reported against the first. */
export function warnPortNames(walk: PodWarningWalk, ports: readonly PortAt[]): void {
  let reported = -1;
  for (const [j, k] of equalKeyPairs(ports.map((at) => at.port.name ?? ''))) {
    const [at, first] = [ports[j], ports[k]];
    if (j === reported || at === undefined || first === undefined) continue;
    reported = j;
    const other = portPath(walk, first);
    walk.warnings.push(
      `${portPath(walk, at)}: duplicate port name ${goQuote(at.port.name ?? '')} with ${other}, services and probes that select ports by name will use ${other}`,
    );
  }
}
