// Generated from k8s.io/api networking/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.networking.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('HTTPIngressPath')]: { path: 'zero' },
  [def('HTTPIngressRuleValue')]: {},
  [def('IPAddress')]: {},
  [def('IPAddressList')]: {},
  [def('IPAddressSpec')]: { parentRef: 'nil' },
  [def('IPBlock')]: { except: 'empty' },
  [def('Ingress')]: {},
  [def('IngressBackend')]: { service: 'nil', resource: 'nil' },
  [def('IngressClass')]: {},
  [def('IngressClassList')]: {},
  [def('IngressClassParametersReference')]: { apiGroup: 'nil', namespace: 'nil' },
  [def('IngressClassSpec')]: { controller: 'zero', parameters: 'nil' },
  [def('IngressList')]: {},
  [def('IngressLoadBalancerIngress')]: { ip: 'zero', hostname: 'zero', ports: 'empty' },
  [def('IngressLoadBalancerStatus')]: { ingress: 'empty' },
  [def('IngressPortStatus')]: { error: 'nil' },
  [def('IngressRule')]: { host: 'zero', http: 'nil' },
  [def('IngressRuleValue')]: { http: 'nil' },
  [def('IngressServiceBackend')]: {},
  [def('IngressSpec')]: { ingressClassName: 'nil', defaultBackend: 'nil', tls: 'empty', rules: 'empty' },
  [def('IngressStatus')]: {},
  [def('IngressTLS')]: { hosts: 'empty', secretName: 'zero' },
  [def('NetworkPolicy')]: {},
  [def('NetworkPolicyEgressRule')]: { ports: 'empty', to: 'empty' },
  [def('NetworkPolicyIngressRule')]: { ports: 'empty', from: 'empty' },
  [def('NetworkPolicyList')]: {},
  [def('NetworkPolicyPeer')]: { podSelector: 'nil', namespaceSelector: 'nil', ipBlock: 'nil' },
  [def('NetworkPolicyPort')]: { protocol: 'nil', port: 'nil', endPort: 'nil' },
  [def('NetworkPolicySpec')]: { ingress: 'empty', egress: 'empty', policyTypes: 'empty' },
  [def('ParentReference')]: { group: 'zero', resource: 'zero', namespace: 'zero', name: 'zero' },
  [def('ServiceBackendPort')]: { name: 'zero', number: 'zero' },
  [def('ServiceCIDR')]: {},
  [def('ServiceCIDRList')]: {},
  [def('ServiceCIDRSpec')]: { cidrs: 'empty' },
  [def('ServiceCIDRStatus')]: { conditions: 'empty' },
};

export const networkingV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
