// networking.k8s.io (pkg/registry/networking/rest/storage_settings.go): v1 networkpolicies,
// ingresses(+status), ingressclasses, servicecidrs(+status) and ipaddresses.
import { newIngressREST } from '../../registry/networking/ingress/storage.js';
import { newIngressClassREST } from '../../registry/networking/ingressclass/storage.js';
import { newIPAddressREST } from '../../registry/networking/ipaddress/storage.js';
import { newNetworkPolicyREST } from '../../registry/networking/networkpolicy/storage.js';
import { newServiceCIDRREST } from '../../registry/networking/servicecidr/storage.js';
import { groupStorageProvider } from './provider.js';

export const networkingStorageProvider = groupStorageProvider('networking.k8s.io', () => ({
  group: 'networking.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: {
        networkpolicies: async (opts) => ({ networkpolicies: await newNetworkPolicyREST(opts) }),
        ingresses: async (opts) => {
          const ing = await newIngressREST(opts);
          return { ingresses: ing.ingresses, 'ingresses/status': ing.status };
        },
        ingressclasses: async (opts) => ({ ingressclasses: await newIngressClassREST(opts) }),
        servicecidrs: async (opts) => {
          const cidrs = await newServiceCIDRREST(opts);
          return { servicecidrs: cidrs.serviceCIDRs, 'servicecidrs/status': cidrs.status };
        },
        ipaddresses: async (opts) => ({ ipaddresses: await newIPAddressREST(opts) }),
      },
    },
  ],
}));
