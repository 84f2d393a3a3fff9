// The autoscaling/v1 shapes of metric specs and statuses (k8s.io/api/autoscaling/v1/types.go, the
// v2beta1 layout) that autoscaling/v1 objects carry in annotations, and their conversion to and from
// autoscaling/v2 (pkg/apis/autoscaling/v1/conversion.go).
import type {
  CrossVersionObjectReference,
  MetricSpec,
  MetricStatus,
  MetricTarget,
  MetricValueStatus,
} from '../../../api/autoscaling/v2/types.js';
import type { LabelSelector } from '../../../api/meta/v1/label-selector.js';

type Quantity = string;
type Selector = LabelSelector | undefined;

export interface MetricSpecV1 {
  type?: string;
  object?: {
    target?: CrossVersionObjectReference;
    metricName?: string;
    targetValue?: Quantity;
    selector?: LabelSelector;
    averageValue?: Quantity;
  };
  pods?: { metricName?: string; targetAverageValue?: Quantity; selector?: LabelSelector };
  resource?: { name?: string; targetAverageUtilization?: number; targetAverageValue?: Quantity };
  containerResource?: {
    name?: string;
    container?: string;
    targetAverageUtilization?: number;
    targetAverageValue?: Quantity;
  };
  external?: {
    metricName?: string;
    metricSelector?: LabelSelector;
    targetValue?: Quantity;
    targetAverageValue?: Quantity;
  };
}

export interface MetricStatusV1 {
  type?: string;
  object?: {
    target?: CrossVersionObjectReference;
    metricName?: string;
    currentValue?: Quantity;
    selector?: LabelSelector;
    averageValue?: Quantity;
  };
  pods?: { metricName?: string; currentAverageValue?: Quantity; selector?: LabelSelector };
  resource?: { name?: string; currentAverageUtilization?: number; currentAverageValue?: Quantity };
  containerResource?: {
    name?: string;
    container?: string;
    currentAverageUtilization?: number;
    currentAverageValue?: Quantity;
  };
  external?: {
    metricName?: string;
    metricSelector?: LabelSelector;
    currentValue?: Quantity;
    currentAverageValue?: Quantity;
  };
}

/** An object type whose possibly-undefined properties become optional ones. */
export type Defined<T> = {
  [K in keyof T as undefined extends T[K] ? never : K]: T[K];
} & { [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined> };

/** Copies the defined values only, as Go's omitempty drops nil pointers. */
export function defined<T extends object>(fields: T): Defined<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Defined<T>;
}

const withSelector = (name: string, selector: Selector) => defined({ name, selector });

function resourceTarget(utilization: number | undefined, averageValue: Quantity | undefined): MetricTarget {
  return defined({
    type: utilization === undefined ? 'AverageValue' : 'Utilization',
    averageValue,
    averageUtilization: utilization,
  });
}

/** Which side of a metric the v1 shape carries: a spec's target or a status's current values. */
interface V1Side {
  /** The prefix of the v1 value fields (`targetValue`, `currentAverageValue`). */
  readonly prefix: 'target' | 'current';
  /** What a resource average value and an external value become when unset: '0' in statuses only. */
  readonly zero?: Quantity;
}

/** The v1 shape of a v2 metric spec or status; the two differ only in their field names and zeros. */
function metricToV1(m: MetricSpec | MetricStatus, side: V1Side): Record<string, unknown> {
  const { prefix, zero } = side;
  // A spec's source carries `target`, a status's `current`.
  const valuesOf = (src: { target: MetricTarget } | { current: MetricValueStatus }): MetricValueStatus =>
    prefix === 'target'
      ? (src as { target: MetricTarget }).target
      : (src as { current: MetricValueStatus }).current;
  const resource = (name: string, container: string | undefined, v: MetricValueStatus): object =>
    defined({
      name,
      container,
      [`${prefix}AverageUtilization`]: v.averageUtilization,
      [`${prefix}AverageValue`]: v.averageValue ?? zero,
    });
  const out: Record<string, unknown> = { type: m.type };
  if (m.object !== undefined) {
    const { describedObject, metric } = m.object;
    const v = valuesOf(m.object);
    out.object = defined({
      target: describedObject,
      metricName: metric.name,
      [`${prefix}Value`]: v.value ?? '0',
      selector: metric.selector,
      averageValue: v.averageValue,
    });
  }
  if (m.pods !== undefined) {
    const { metric } = m.pods;
    out.pods = defined({
      metricName: metric.name,
      [`${prefix}AverageValue`]: valuesOf(m.pods).averageValue ?? '0',
      selector: metric.selector,
    });
  }
  if (m.resource !== undefined) out.resource = resource(m.resource.name, undefined, valuesOf(m.resource));
  if (m.containerResource !== undefined) {
    const { name, container } = m.containerResource;
    out.containerResource = resource(name, container, valuesOf(m.containerResource));
  }
  if (m.external !== undefined) {
    const { metric } = m.external;
    const v = valuesOf(m.external);
    out.external = defined({
      metricName: metric.name,
      metricSelector: metric.selector,
      [`${prefix}Value`]: v.value ?? zero,
      [`${prefix}AverageValue`]: v.averageValue,
    });
  }
  return out;
}

export function metricSpecToV1(m: MetricSpec): MetricSpecV1 {
  return metricToV1(m, { prefix: 'target' });
}

export function metricSpecFromV1(m: MetricSpecV1): MetricSpec {
  const out: MetricSpec = { type: m.type ?? '' };
  if (m.object !== undefined) {
    const o = m.object;
    out.object = {
      describedObject: o.target ?? { kind: '', name: '' },
      metric: withSelector(o.metricName ?? '', o.selector),
      target: defined({
        type: o.averageValue === undefined ? 'Value' : 'AverageValue',
        value: o.targetValue ?? '0',
        averageValue: o.averageValue,
      }),
    };
  }
  if (m.pods !== undefined) {
    const p = m.pods;
    out.pods = {
      metric: withSelector(p.metricName ?? '', p.selector),
      target: { type: 'AverageValue', averageValue: p.targetAverageValue ?? '0' },
    };
  }
  if (m.resource !== undefined) {
    const r = m.resource;
    out.resource = {
      name: r.name ?? '',
      target: resourceTarget(r.targetAverageUtilization, r.targetAverageValue),
    };
  }
  if (m.containerResource !== undefined) {
    const c = m.containerResource;
    out.containerResource = {
      name: c.name ?? '',
      container: c.container ?? '',
      target: resourceTarget(c.targetAverageUtilization, c.targetAverageValue),
    };
  }
  if (m.external !== undefined) {
    const e = m.external;
    out.external = {
      metric: withSelector(e.metricName ?? '', e.metricSelector),
      target: defined({
        type: e.targetValue === undefined ? 'AverageValue' : 'Value',
        value: e.targetValue,
        averageValue: e.targetAverageValue,
      }),
    };
  }
  return out;
}

export function metricStatusToV1(m: MetricStatus): MetricStatusV1 {
  return metricToV1(m, { prefix: 'current', zero: '0' });
}

export function metricStatusFromV1(m: MetricStatusV1): MetricStatus {
  const out: MetricStatus = { type: m.type ?? '' };
  if (m.object !== undefined) {
    const o = m.object;
    out.object = {
      describedObject: o.target ?? { kind: '', name: '' },
      metric: withSelector(o.metricName ?? '', o.selector),
      current: defined({ value: o.currentValue ?? '0', averageValue: o.averageValue }),
    };
  }
  if (m.pods !== undefined) {
    const p = m.pods;
    out.pods = {
      metric: withSelector(p.metricName ?? '', p.selector),
      current: { averageValue: p.currentAverageValue ?? '0' },
    };
  }
  if (m.resource !== undefined) {
    const r = m.resource;
    out.resource = {
      name: r.name ?? '',
      current: defined({
        averageValue: r.currentAverageValue ?? '0',
        averageUtilization: r.currentAverageUtilization,
      }),
    };
  }
  if (m.containerResource !== undefined) {
    const c = m.containerResource;
    out.containerResource = {
      name: c.name ?? '',
      container: c.container ?? '',
      current: defined({
        averageValue: c.currentAverageValue ?? '0',
        averageUtilization: c.currentAverageUtilization,
      }),
    };
  }
  if (m.external !== undefined) {
    const e = m.external;
    out.external = {
      metric: withSelector(e.metricName ?? '', e.metricSelector),
      current: defined({ value: e.currentValue ?? '0', averageValue: e.currentAverageValue }),
    };
  }
  return out;
}
