// HorizontalPodAutoscaler metric validation (validateMetrics and the source checks in
// pkg/apis/autoscaling/validation/validation.go): each metric names one source of its type, with a
// well-formed metric identifier and target.
import {
  metricSourceTypes,
  type CrossVersionObjectReference,
  type MetricIdentifier,
  type MetricSpec,
  type MetricTarget,
} from '../../../api/autoscaling/v2/types.js';
import { isDNS1123Label } from '../../../machinery/validation/dns.js';
import {
  FieldError,
  isValidPathSegmentName,
  type ErrorList,
  type FieldPath,
} from '../../../machinery/validation/index.js';
import { quantityOf, quantitySign } from '../../core/pod/quantity.js';

export function validateCrossVersionObjectReference(
  ref: CrossVersionObjectReference,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  for (const field of ['kind', 'name'] as const) {
    const value = ref[field];
    if (value === '') errs.push(FieldError.required(path.child(field)));
    else
      for (const msg of isValidPathSegmentName(value))
        errs.push(FieldError.invalid(path.child(field), value, msg));
  }
  return errs;
}

function validateMetricIdentifier(id: MetricIdentifier, path: FieldPath): ErrorList {
  const name = id.name;
  if (name === '') return [FieldError.required(path.child('name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => FieldError.invalid(path.child('name'), name, msg));
}

const positive = (q: string): boolean => {
  const value = quantityOf(q);
  return value !== undefined && quantitySign(value) > 0;
};

function validateMetricTarget(t: MetricTarget, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const type = t.type;
  if (type === '') errs.push(FieldError.required(path.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue')
    errs.push(
      FieldError.invalid(path.child('type'), type, 'must be either Utilization, Value, or AverageValue'),
    );
  if (t.value !== undefined && !positive(t.value))
    errs.push(FieldError.invalid(path.child('value'), t.value, 'must be positive'));
  if (t.averageValue !== undefined && !positive(t.averageValue))
    errs.push(FieldError.invalid(path.child('averageValue'), t.averageValue, 'must be positive'));
  if (t.averageUtilization !== undefined && t.averageUtilization < 1)
    errs.push(
      FieldError.invalid(path.child('averageUtilization'), t.averageUtilization, 'must be greater than 0'),
    );
  return errs;
}

/** Resource and ContainerResource targets: a raw value or a utilization, not both. */
function validateResourceTarget(t: MetricTarget, path: FieldPath): ErrorList {
  const errs = validateMetricTarget(t, path);
  if (t.averageUtilization === undefined && t.averageValue === undefined)
    errs.push(
      FieldError.required(
        path.child('averageUtilization'),
        'must set either a target raw value or a target utilization',
      ),
    );
  if (t.averageUtilization !== undefined && t.averageValue !== undefined)
    errs.push(
      FieldError.forbidden(
        path.child('averageValue'),
        'may not set both a target raw value and a target utilization',
      ),
    );
  return errs;
}

type SourceField = 'object' | 'external' | 'pods' | 'resource' | 'containerResource';
const sourceFieldOf: Readonly<Record<(typeof metricSourceTypes)[number], SourceField>> = {
  Object: 'object',
  External: 'external',
  Pods: 'pods',
  Resource: 'resource',
  ContainerResource: 'containerResource',
};

/** The metric identifier and target of an Object, External or Pods source. */
function validateIdentifiedTarget(
  src: { metric: MetricIdentifier; target: MetricTarget },
  path: FieldPath,
): ErrorList {
  return [
    ...validateMetricIdentifier(src.metric, path.child('metric')),
    ...validateMetricTarget(src.target, path.child('target')),
  ];
}

/** A target that sets none of the values a source needs, reported at target.averageValue. */
function requireTargetValue(set: boolean, path: FieldPath, msg: string): ErrorList {
  return set ? [] : [FieldError.required(path.child('target', 'averageValue'), msg)];
}

const hasValueOrAverage = (t: MetricTarget): boolean => t.value !== undefined || t.averageValue !== undefined;

/** The resource name of a Resource or ContainerResource source. */
function validateResourceName(name: string, path: FieldPath): ErrorList {
  return name === '' ? [FieldError.required(path.child('name'), 'must specify a resource name')] : [];
}

function validateSource(spec: MetricSpec, field: SourceField, path: FieldPath): ErrorList {
  const p = path.child(field);
  switch (field) {
    case 'object': {
      const src = spec.object;
      if (src === undefined) return [];
      return [
        ...validateCrossVersionObjectReference(src.describedObject, p.child('describedObject')),
        ...validateIdentifiedTarget(src, p),
        ...requireTargetValue(
          hasValueOrAverage(src.target),
          p,
          'must set either a target value or averageValue',
        ),
      ];
    }
    case 'external': {
      const src = spec.external;
      if (src === undefined) return [];
      const errs = [
        ...validateIdentifiedTarget(src, p),
        ...requireTargetValue(
          hasValueOrAverage(src.target),
          p,
          'must set either a target value for metric or a per-pod target',
        ),
      ];
      if (src.target.value !== undefined && src.target.averageValue !== undefined)
        errs.push(
          FieldError.forbidden(
            p.child('target', 'value'),
            'may not set both a target value for metric and a per-pod target',
          ),
        );
      return errs;
    }
    case 'pods': {
      const src = spec.pods;
      if (src === undefined) return [];
      return [
        ...validateIdentifiedTarget(src, p),
        ...requireTargetValue(
          src.target.averageValue !== undefined,
          p,
          'must specify a positive target averageValue',
        ),
      ];
    }
    case 'resource': {
      const src = spec.resource;
      if (src === undefined) return [];
      return [...validateResourceName(src.name, p), ...validateResourceTarget(src.target, p.child('target'))];
    }
    case 'containerResource': {
      const src = spec.containerResource;
      if (src === undefined) return [];
      const errs = validateResourceName(src.name, p);
      const container = src.container;
      if (container === '') errs.push(FieldError.required(p.child('container'), 'must specify a container'));
      else
        for (const msg of isDNS1123Label(container))
          errs.push(FieldError.invalid(p.child('container'), container, msg));
      return [...errs, ...validateResourceTarget(src.target, p.child('target'))];
    }
  }
}

const sortedSourceTypes = [...metricSourceTypes];

function validateMetricSpec(spec: MetricSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const type = spec.type;
  if (type === '') errs.push(FieldError.required(path.child('type'), 'must specify a metric source type'));
  const known = (metricSourceTypes as readonly string[]).includes(type);
  if (!known) errs.push(FieldError.notSupported(path.child('type'), type, sortedSourceTypes));
  // Only the first source present is validated, in kube's order.
  const present = (['object', 'external', 'pods', 'resource', 'containerResource'] as const).filter(
    (f) => spec[f] !== undefined,
  );
  const first = present[0];
  if (first !== undefined) errs.push(...validateSource(spec, first, path));
  const expected = known ? sourceFieldOf[type as keyof typeof sourceFieldOf] : undefined;
  if (expected === undefined) errs.push(FieldError.notSupported(path.child('type'), type, sortedSourceTypes));
  else if (spec[expected] === undefined)
    errs.push(
      FieldError.required(path.child(expected), 'must populate information for the given metric source'),
    );
  if (present.length !== 1)
    for (const f of present.filter((f) => f !== expected).sort())
      errs.push(FieldError.forbidden(path.child(f), 'must populate the given metric source only'));
  return errs;
}

export function validateMetrics(
  metrics: readonly MetricSpec[],
  path: FieldPath,
  minReplicas: number | undefined,
): ErrorList {
  const errs = metrics.flatMap((m, i) => validateMetricSpec(m, path.index(i)));
  const scalesOnObjects = metrics.some((m) => m.type === 'Object' || m.type === 'External');
  if (minReplicas === 0 && !scalesOnObjects)
    errs.push(
      FieldError.forbidden(
        path,
        'must specify at least one Object or External metric to support scaling to zero replicas',
      ),
    );
  return errs;
}
