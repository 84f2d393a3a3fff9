// core/v1 parts of a PodSpec beyond containers and volumes: host aliases, DNS config, readiness
// gates, topology spread constraints, the OS and scheduling gates.
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { atomicList, int32, ref, str, struct } from '../../schema/builders.js';

export interface HostAlias {
  ip: string;
  hostnames?: string[];
}

export interface PodDNSConfig {
  nameservers?: string[];
  searches?: string[];
  options?: { name?: string; value?: string }[];
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: string;
  labelSelector?: LabelSelector;
  minDomains?: number;
  nodeAffinityPolicy?: string;
  nodeTaintsPolicy?: string;
  matchLabelKeys?: string[];
}

export const HOST_ALIAS = coreV1('HostAlias');
export const POD_DNS_CONFIG = coreV1('PodDNSConfig');
const POD_DNS_CONFIG_OPTION = coreV1('PodDNSConfigOption');
export const POD_READINESS_GATE = coreV1('PodReadinessGate');
export const TOPOLOGY_SPREAD_CONSTRAINT = coreV1('TopologySpreadConstraint');
export const POD_OS = coreV1('PodOS');
export const POD_SCHEDULING_GATE = coreV1('PodSchedulingGate');

const strings = (description?: string): ReturnType<typeof atomicList> =>
  atomicList({ type: 'string' }, description);

export const podSpecPartsModule: APIModule = {
  definitions: {
    [HOST_ALIAS]: struct(
      "An entry of the pod's /etc/hosts.",
      { hostnames: strings('Hostnames for the IP.'), ip: str('The IP address.') },
      { required: ['ip'] },
    ),
    [POD_DNS_CONFIG]: struct('DNS parameters merged into those the DNS policy gives.', {
      nameservers: strings('DNS name server IPs.'),
      options: atomicList(ref(POD_DNS_CONFIG_OPTION), 'Resolver options.'),
      searches: strings('DNS search domains.'),
    }),
    [POD_DNS_CONFIG_OPTION]: struct('A resolver option.', { name: str(), value: str() }),
    [POD_READINESS_GATE]: struct(
      "A pod condition the pod's readiness waits for.",
      { conditionType: str('The condition type.') },
      { required: ['conditionType'] },
    ),
    [TOPOLOGY_SPREAD_CONSTRAINT]: struct(
      'How matching pods spread among topology domains.',
      {
        labelSelector: ref(LABEL_SELECTOR, 'Which pods count.'),
        matchLabelKeys: strings('Pod label keys whose values join the selector.'),
        maxSkew: int32('The largest difference allowed between domains.'),
        minDomains: int32('The least number of eligible domains.'),
        nodeAffinityPolicy: str('Honor or Ignore.', { enum: ['Honor', 'Ignore'] }),
        nodeTaintsPolicy: str('Honor or Ignore.', { enum: ['Honor', 'Ignore'] }),
        topologyKey: str('The node label key of the domains.'),
        whenUnsatisfiable: str('DoNotSchedule or ScheduleAnyway.', {
          enum: ['DoNotSchedule', 'ScheduleAnyway'],
        }),
      },
      { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'] },
    ),
    [POD_OS]: struct(
      "The operating system of the pod's containers.",
      { name: str('linux or windows.') },
      { required: ['name'] },
    ),
    [POD_SCHEDULING_GATE]: struct(
      'A gate the pod waits on before it is scheduled.',
      { name: str("The gate's name.") },
      { required: ['name'] },
    ),
  },
  protobuf: {
    [HOST_ALIAS]: { ip: 1, hostnames: 2 },
    [POD_DNS_CONFIG]: { nameservers: 1, searches: 2, options: 3 },
    [POD_DNS_CONFIG_OPTION]: { name: 1, value: pointer(2) },
    [POD_READINESS_GATE]: { conditionType: 1 },
    [TOPOLOGY_SPREAD_CONSTRAINT]: {
      maxSkew: 1,
      topologyKey: 2,
      whenUnsatisfiable: 3,
      labelSelector: pointer(4),
      minDomains: pointer(5),
      nodeAffinityPolicy: pointer(6),
      nodeTaintsPolicy: pointer(7),
      matchLabelKeys: 8,
    },
    [POD_OS]: { name: 1 },
    [POD_SCHEDULING_GATE]: { name: 1 },
  },
};
