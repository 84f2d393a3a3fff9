// The Services a pod change concerns: those of its namespace whose selector matches its labels now
// or matched them before the change (the endpoints and endpointslice controllers' getPodServiceMemberships).
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import { selectorFromSet } from '../../../machinery/labels/selector-from-set.js';
import type { Informer } from '../simulation/informer.js';

export function servicesOfPod(services: Informer<Service>, pod: Pod, old: Pod | undefined): Service[] {
  const out: Service[] = [];
  for (const svc of services.list(pod.metadata?.namespace ?? '')) {
    const selector = svc.spec?.selector;
    if (selector === undefined || Object.keys(selector).length === 0) continue;
    const sel = selectorFromSet(selector);
    if (sel.matches(pod.metadata?.labels ?? {}) || sel.matches(old?.metadata?.labels ?? {})) out.push(svc);
  }
  return out;
}
