// networking.k8s.io/v1 NetworkPolicy(+List) (k8s.io/api/networking/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { arrayOf, atomicList, int32, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { INT_OR_STRING, type IntOrString } from '../../util/int-or-string.js';
import { networkingV1, networkingV1Def } from './ingress.js';

export const policyTypes = ['Ingress', 'Egress'] as const;

export interface NetworkPolicyPort {
  protocol?: string;
  port?: IntOrString;
  endPort?: number;
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

export interface NetworkPolicySpec {
  podSelector?: LabelSelector;
  ingress?: { ports?: NetworkPolicyPort[]; from?: NetworkPolicyPeer[] }[];
  egress?: { ports?: NetworkPolicyPort[]; to?: NetworkPolicyPeer[] }[];
  policyTypes?: string[];
}

export interface NetworkPolicy extends KubeObject {
  apiVersion?: 'networking.k8s.io/v1';
  kind?: 'NetworkPolicy';
  metadata?: ObjectMeta;
  spec?: NetworkPolicySpec;
}

export interface NetworkPolicyList extends KubeObject {
  metadata?: ListMeta;
  items: NetworkPolicy[];
}

const NETWORK_POLICY = networkingV1Def('NetworkPolicy');
const NETWORK_POLICY_LIST = networkingV1Def('NetworkPolicyList');
const SPEC = networkingV1Def('NetworkPolicySpec');
const INGRESS_RULE = networkingV1Def('NetworkPolicyIngressRule');
const EGRESS_RULE = networkingV1Def('NetworkPolicyEgressRule');
const PEER = networkingV1Def('NetworkPolicyPeer');
const PORT = networkingV1Def('NetworkPolicyPort');
const IP_BLOCK = networkingV1Def('IPBlock');

export const networkPolicyKind = groupKind(networkingV1, 'NetworkPolicy', NETWORK_POLICY);
export const networkPolicyListKind = groupKind(networkingV1, 'NetworkPolicyList', NETWORK_POLICY_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const peers = (description: string) => atomicList(ref(PEER, undefined, { default: {} }), description);
const ports = atomicList(ref(PORT, undefined, { default: {} }), 'The ports the rule allows; all when empty.');

export const networkPolicyModule: APIModule = {
  definitions: {
    [IP_BLOCK]: struct(
      'A CIDR, minus some ranges.',
      {
        cidr: str('The CIDR.', { default: '' }),
        except: atomicList(str(undefined, { default: '' }), 'CIDRs left out of the block.'),
      },
      { required: ['cidr'] },
    ),
    [PORT]: struct('A port traffic is allowed on.', {
      endPort: int32('The last port of a range starting at port.'),
      port: ref(INT_OR_STRING, 'The port number or name.'),
      protocol: str('TCP, UDP or SCTP; TCP when unset.', { enum: ['SCTP', 'TCP', 'UDP'], default: 'TCP' }),
    }),
    [PEER]: struct('Pods, namespaces or an IP block traffic is allowed to or from.', {
      ipBlock: ref(IP_BLOCK, 'An IP block.'),
      namespaceSelector: ref(LABEL_SELECTOR, 'Namespaces by label.'),
      podSelector: ref(LABEL_SELECTOR, 'Pods by label.'),
    }),
    [INGRESS_RULE]: struct('Traffic allowed into the selected pods.', {
      from: peers('The sources allowed; all when empty.'),
      ports,
    }),
    [EGRESS_RULE]: struct('Traffic allowed out of the selected pods.', {
      ports,
      to: peers('The destinations allowed; all when empty.'),
    }),
    [SPEC]: struct('The traffic allowed for a set of pods.', {
      egress: atomicList(ref(EGRESS_RULE, undefined, { default: {} }), 'Egress rules.'),
      ingress: atomicList(ref(INGRESS_RULE, undefined, { default: {} }), 'Ingress rules.'),
      podSelector: ref(LABEL_SELECTOR, 'The pods the policy applies to; all of the namespace when empty.', {
        default: {},
      }),
      policyTypes: atomicList(
        str(undefined, { default: '', enum: [...policyTypes] }),
        'Ingress, Egress or both.',
      ),
    }),
    [NETWORK_POLICY]: struct('The network traffic allowed for a set of pods.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'The policy.', { default: {} }),
    }),
    [NETWORK_POLICY_LIST]: struct(
      'A list of NetworkPolicies.',
      {
        apiVersion,
        items: arrayOf(ref(NETWORK_POLICY, undefined, { default: {} }), 'The NetworkPolicies.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [networkPolicyKind, networkPolicyListKind],
  goTypes: { [PORT]: { protocol: 'v1.Protocol' } },
  // k8s.io/api/networking/v1 generated.proto.
  protobuf: {
    [NETWORK_POLICY]: { metadata: 1, spec: 2 },
    [NETWORK_POLICY_LIST]: { metadata: 1, items: 2 },
    [SPEC]: { podSelector: 1, ingress: 2, egress: 3, policyTypes: 4 },
    [INGRESS_RULE]: { ports: 1, from: 2 },
    [EGRESS_RULE]: { ports: 1, to: 2 },
    [PEER]: { podSelector: pointer(1), namespaceSelector: pointer(2), ipBlock: pointer(3) },
    [PORT]: { protocol: pointer(1), port: pointer(2), endPort: pointer(3) },
    [IP_BLOCK]: { cidr: 1, except: 2 },
  },
};
