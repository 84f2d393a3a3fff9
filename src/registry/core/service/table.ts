// `kubectl get services` columns: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, wide: SELECTOR
// (printService in pkg/printers/internalversion/printers.go).
import type { LoadBalancerStatus, Service, ServicePort } from '../../../api/core/v1/service.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string, priority = 0): typeof nameColumn => ({
  name,
  type: 'string',
  format: '',
  description,
  priority,
});

/** loadBalancerStatusStringer (wide, as the server prints). */
function loadBalancerIPs(lb: LoadBalancerStatus | undefined): string {
  return (lb?.ingress ?? [])
    .map((i) => ((i.ip ?? '') !== '' ? (i.ip ?? '') : (i.hostname ?? '')))
    .filter((s) => s !== '')
    .join(',');
}

/** getServiceExternalIP. */
export function serviceExternalIP(svc: Service): string {
  const external = svc.spec?.externalIPs ?? [];
  switch (svc.spec?.type ?? '') {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIPs(svc.status?.loadBalancer);
      if (external.length > 0) return [...(lb === '' ? [] : lb.split(',')), ...external].join(',');
      return lb !== '' ? lb : '<pending>';
    }
    case 'ExternalName':
      return svc.spec?.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** makePortString: `80/TCP`, `80:30080/TCP`, joined by commas. */
export function servicePortString(ports: readonly ServicePort[]): string {
  return ports
    .map((p) =>
      (p.nodePort ?? 0) > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`,
    )
    .join(',');
}

/** labels.FormatLabels: sorted `k=v` pairs, `<none>` when empty. */
function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels?.[k] ?? ''}`).join(',');
}

export const serviceTableConvertor: TableConvertor = tableConvertorFor<Service>({
  columns: [
    nameColumn,
    column('Type', 'type determines how the Service is exposed.'),
    column('Cluster-IP', 'clusterIP is the IP address of the service.'),
    column(
      'External-IP',
      'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
    ),
    column('Port(s)', 'The list of ports that are exposed by this service.'),
    ageColumn,
    column('Selector', 'Route service traffic to pods with label keys and values matching this selector.', 1),
  ],
  cells: (svc, now) => {
    const ports = servicePortString(svc.spec?.ports ?? []);
    return [
      svc.metadata?.name ?? '',
      svc.spec?.type ?? '',
      svc.spec?.clusterIPs?.[0] ?? '<none>',
      serviceExternalIP(svc),
      ports === '' ? '<none>' : ports,
      translateTimestampSince(svc.metadata?.creationTimestamp, now),
      formatLabels(svc.spec?.selector),
    ];
  },
});
