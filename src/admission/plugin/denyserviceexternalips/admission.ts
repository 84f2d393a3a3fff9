// DenyServiceExternalIPs (plugin/pkg/admission/network/denyserviceexternalips): no Service may gain
// an external IP it did not already have; existing ones may stay or be removed.
import type { Service } from '../../../api/core/v1/service.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type AdmissionResult, type ValidationInterface } from '../../interfaces.js';

export const denyServiceExternalIPsPluginName = 'DenyServiceExternalIPs';

function isSubset(svc: Service, old: Service | null): boolean {
  const ips = svc.spec?.externalIPs ?? [];
  if (ips.length === 0) return true;
  if (old === null) return false;
  const before = new Set(old.spec?.externalIPs ?? []);
  return ips.every((ip) => before.has(ip));
}

export class DenyServiceExternalIPs implements ValidationInterface {
  readonly handles = handlesOnly('CREATE', 'UPDATE');
  readonly resources: ReadonlySet<string> = new Set(['services']);

  validate(_ctx: RequestContext, a: Attributes): AdmissionResult {
    if (a.resource.group !== '' || a.resource.resource !== 'services' || a.subresource !== '')
      return undefined;
    if (a.object === null) return undefined;
    const old = a.operation === 'UPDATE' ? (a.oldObject as Service | null) : null;
    if (isSubset(a.object as Service, old)) return undefined;
    return Promise.reject(newAdmissionForbidden(a, 'Use of external IPs is denied by admission control'));
  }
}
