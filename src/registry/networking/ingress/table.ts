// `kubectl get ingresses` columns: NAME CLASS HOSTS ADDRESS PORTS AGE (printIngress, formatHosts,
// formatPorts and ingressLoadBalancerStatusStringer in pkg/printers/internalversion/printers.go).
import type { Ingress, IngressRule } from '../../../api/networking/v1/ingress.js';
import { compareGoStrings } from '../../../machinery/validation/index.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string) =>
  ({ name, type: 'string', format: '', description, priority: 0 }) as const;

/** Up to three hosts, then how many rules more; `*` when no rule names a host. */
export function formatHosts(rules: readonly IngressRule[]): string {
  const max = 3;
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === max) more = true;
    if (!more && (rule.host ?? '') !== '') list.push(rule.host ?? '');
  }
  if (list.length === 0) return '*';
  const text = list.join(',');
  return more ? `${text} + ${String(rules.length - max)} more...` : text;
}

/** The load balancer's IPs (or hostnames), sorted and unique; servers print the wide form. */
function addresses(ingress: Ingress): string {
  const set = new Set<string>();
  for (const lb of ingress.status?.loadBalancer?.ingress ?? []) {
    if ((lb.ip ?? '') !== '') set.add(lb.ip ?? '');
    else if ((lb.hostname ?? '') !== '') set.add(lb.hostname ?? '');
  }
  return [...set].sort(compareGoStrings).join(',');
}

export const ingressTableConvertor: TableConvertor = tableConvertorFor<Ingress>({
  columns: [
    nameColumn,
    column('Class', 'The IngressClass that implements the Ingress.'),
    column('Hosts', 'The hosts the rules apply to.'),
    column('Address', 'The addresses of the load balancer.'),
    column('Ports', 'The ports the Ingress is served on.'),
    ageColumn,
  ],
  cells: (ingress, now) => [
    ingress.metadata?.name ?? '',
    ingress.spec?.ingressClassName ?? '<none>',
    formatHosts(ingress.spec?.rules ?? []),
    addresses(ingress),
    (ingress.spec?.tls ?? []).length > 0 ? '80, 443' : '80',
    translateTimestampSince(ingress.metadata?.creationTimestamp, now),
  ],
});
