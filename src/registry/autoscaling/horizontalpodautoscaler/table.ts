// `kubectl get horizontalpodautoscalers` columns: NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE
// (printHorizontalPodAutoscaler and formatHPAMetrics in pkg/printers/internalversion/printers.go).
import type {
  HorizontalPodAutoscaler,
  MetricSpec,
  MetricStatus,
  MetricTarget,
  MetricValueStatus,
} from '../../../api/autoscaling/v2/types.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, type: string, description: string) =>
  ({ name, type, format: '', description, priority: 0 }) as const;

const unknown = '<unknown>';
const percent = (n: number | undefined): string | undefined =>
  n === undefined ? undefined : `${String(n)}%`;

/** "current/target" of a value or average-value target; "(avg)" marks an average over an object. */
function valueTarget(
  target: MetricTarget,
  current: MetricValueStatus | undefined,
  avgSuffix: boolean,
): string {
  if (target.averageValue !== undefined)
    return `${current?.averageValue ?? unknown}/${target.averageValue}${avgSuffix ? ' (avg)' : ''}`;
  return `${current?.value ?? unknown}/${target.value ?? ''}`;
}

/** "<resource>: current/target" of a resource or container resource metric. */
function resourceTarget(name: string, target: MetricTarget, current: MetricValueStatus | undefined): string {
  if (target.averageValue !== undefined)
    return `${name}: ${current?.averageValue ?? unknown}/${target.averageValue}`;
  return `${name}: ${percent(current?.averageUtilization) ?? unknown}/${percent(target.averageUtilization) ?? '<auto>'}`;
}

function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec.type) {
    case 'External':
      return spec.external === undefined
        ? unknown
        : valueTarget(spec.external.target, status?.external?.current, true);
    case 'Pods':
      return `${status?.pods?.current.averageValue ?? unknown}/${spec.pods?.target.averageValue ?? ''}`;
    case 'Object':
      return spec.object === undefined
        ? unknown
        : valueTarget(spec.object.target, status?.object?.current, true);
    case 'Resource':
      return spec.resource === undefined
        ? unknown
        : resourceTarget(spec.resource.name, spec.resource.target, status?.resource?.current);
    case 'ContainerResource':
      return spec.containerResource === undefined
        ? unknown
        : resourceTarget(
            spec.containerResource.name,
            spec.containerResource.target,
            status?.containerResource?.current,
          );
    default:
      return '<unknown type>';
  }
}

/** Two metrics at most, then "+ N more...". */
export function formatHPAMetrics(specs: readonly MetricSpec[], statuses: readonly MetricStatus[]): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((spec, i) => formatMetric(spec, statuses[i]));
  const max = 2;
  if (list.length <= max) return list.join(', ');
  return `${list.slice(0, max).join(', ')} + ${String(list.length - max)} more...`;
}

export const horizontalPodAutoscalerTableConvertor: TableConvertor =
  tableConvertorFor<HorizontalPodAutoscaler>({
    columns: [
      nameColumn,
      column('Reference', 'string', 'scaleTargetRef points to the target resource to scale.'),
      column(
        'Targets',
        'string',
        'metrics contains the specifications for which to use to calculate the desired replica count.',
      ),
      column(
        'MinPods',
        'string',
        'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.',
      ),
      column(
        'MaxPods',
        'integer',
        'maxReplicas is the upper limit for the number of pods that can be set by the autoscaler.',
      ),
      column(
        'Replicas',
        'integer',
        'currentReplicas is current number of replicas of pods managed by this autoscaler.',
      ),
      ageColumn,
    ],
    cells: (hpa, now) => {
      const ref = hpa.spec?.scaleTargetRef;
      const min = hpa.spec?.minReplicas;
      return [
        hpa.metadata?.name ?? '',
        `${ref?.kind ?? ''}/${ref?.name ?? ''}`,
        formatHPAMetrics(hpa.spec?.metrics ?? [], hpa.status?.currentMetrics ?? []),
        min === undefined ? '<unset>' : String(min),
        hpa.spec?.maxReplicas ?? 0,
        hpa.status?.currentReplicas ?? 0,
        translateTimestampSince(hpa.metadata?.creationTimestamp, now),
      ];
    },
  });
