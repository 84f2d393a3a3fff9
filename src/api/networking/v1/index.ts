// networking.k8s.io/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { ingressClassModule } from './ingress-class.js';
import { ingressModule } from './ingress.js';
import { ipAddressModule } from './ip-address.js';
import { networkPolicyModule } from './network-policy.js';
import { serviceCIDRModule } from './service-cidr.js';

export const networkingV1Modules: readonly APIModule[] = [
  ingressModule,
  ingressClassModule,
  networkPolicyModule,
  serviceCIDRModule,
  ipAddressModule,
];
