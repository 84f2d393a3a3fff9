// The autoscaling/v1 shapes of metric specs and statuses (k8s.io/api/autoscaling/v1/types.go, the
// v2beta1 layout) that autoscaling/v1 objects carry in annotations, and their conversion to and from
// autoscaling/v2 (pkg/apis/autoscaling/v1/conversion.go).
import type {
  CrossVersionObjectReference,
  MetricSpec,
  MetricStatus,
  MetricTarget,
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

export function metricSpecToV1(m: MetricSpec): MetricSpecV1 {
  const out: MetricSpecV1 = { type: m.type };
  if (m.object !== undefined) {
    const { describedObject, metric, target } = m.object;
    out.object = defined({
      target: describedObject,
      metricName: metric.name,
      targetValue: target.value ?? '0',
      selector: metric.selector,
      averageValue: target.averageValue,
    });
  }
  if (m.pods !== undefined) {
    const { metric, target } = m.pods;
    out.pods = defined({
      metricName: metric.name,
      targetAverageValue: target.averageValue ?? '0',
      selector: metric.selector,
    });
  }
  if (m.resource !== undefined) {
    const { name, target } = m.resource;
    out.resource = defined({
      name,
      targetAverageUtilization: target.averageUtilization,
      targetAverageValue: target.averageValue,
    });
  }
  if (m.containerResource !== undefined) {
    const { name, container, target } = m.containerResource;
    out.containerResource = defined({
      name,
      container,
      targetAverageUtilization: target.averageUtilization,
      targetAverageValue: target.averageValue,
    });
  }
  if (m.external !== undefined) {
    const { metric, target } = m.external;
    out.external = defined({
      metricName: metric.name,
      metricSelector: metric.selector,
      targetValue: target.value,
      targetAverageValue: target.averageValue,
    });
  }
  return out;
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
  const out: MetricStatusV1 = { type: m.type };
  if (m.object !== undefined) {
    const { describedObject, metric, current } = m.object;
    out.object = defined({
      target: describedObject,
      metricName: metric.name,
      currentValue: current.value ?? '0',
      selector: metric.selector,
      averageValue: current.averageValue,
    });
  }
  if (m.pods !== undefined) {
    const { metric, current } = m.pods;
    out.pods = defined({
      metricName: metric.name,
      currentAverageValue: current.averageValue ?? '0',
      selector: metric.selector,
    });
  }
  if (m.resource !== undefined) {
    const { name, current } = m.resource;
    out.resource = defined({
      name,
      currentAverageUtilization: current.averageUtilization,
      currentAverageValue: current.averageValue ?? '0',
    });
  }
  if (m.containerResource !== undefined) {
    const { name, container, current } = m.containerResource;
    out.containerResource = defined({
      name,
      container,
      currentAverageUtilization: current.averageUtilization,
      currentAverageValue: current.averageValue ?? '0',
    });
  }
  if (m.external !== undefined) {
    const { metric, current } = m.external;
    out.external = defined({
      metricName: metric.name,
      metricSelector: metric.selector,
      currentValue: current.value ?? '0',
      currentAverageValue: current.averageValue,
    });
  }
  return out;
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
