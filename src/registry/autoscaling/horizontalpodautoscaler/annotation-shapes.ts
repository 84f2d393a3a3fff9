// What Go's json.Unmarshal would accept from autoscaling/v1's round-trip annotations: kube decodes
// them into typed structs and drops an annotation that does not fit, so a value of the wrong type
// here means "ignore the annotation", never a failure later on.

type Kind = 'string' | 'number' | 'object' | 'array';
/** field → its JSON kind, or the nested shape of an object field. */
interface Shape {
  readonly [field: string]: Kind | Shape;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(v: unknown): Kind | 'other' {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (Array.isArray(v)) return 'array';
  return isRecord(v) ? 'object' : 'other';
}

/** Absent and null fields fit any shape, as they decode to Go's zero values. */
function fits(value: unknown, shape: Shape): boolean {
  if (!isRecord(value)) return false;
  return Object.entries(shape).every(([field, want]) => {
    const v = value[field];
    if (v === undefined || v === null) return true;
    return typeof want === 'string' ? kindOf(v) === want : fits(v, want);
  });
}

const ref: Shape = { kind: 'string', name: 'string', apiVersion: 'string' };
const sources = (current: boolean): Shape => {
  const value = current ? 'currentValue' : 'targetValue';
  const average = current ? 'currentAverageValue' : 'targetAverageValue';
  const utilization = current ? 'currentAverageUtilization' : 'targetAverageUtilization';
  const resource: Shape = { name: 'string', [utilization]: 'number', [average]: 'string' };
  return {
    type: 'string',
    object: {
      target: ref,
      metricName: 'string',
      [value]: 'string',
      selector: 'object',
      averageValue: 'string',
    },
    pods: { metricName: 'string', [average]: 'string', selector: 'object' },
    resource,
    containerResource: { ...resource, container: 'string' },
    external: { metricName: 'string', metricSelector: 'object', [value]: 'string', [average]: 'string' },
  };
};
const metricSpec = sources(false);
const metricStatus = sources(true);
const rules: Shape = {
  stabilizationWindowSeconds: 'number',
  selectPolicy: 'string',
  policies: 'array',
  tolerance: 'string',
};
const policy: Shape = { type: 'string', value: 'number', periodSeconds: 'number' };
const condition: Shape = {
  type: 'string',
  status: 'string',
  lastTransitionTime: 'string',
  reason: 'string',
  message: 'string',
};

const listOf = (value: unknown, shape: Shape): boolean =>
  Array.isArray(value) && value.every((item) => fits(item, shape));

export const fitsMetricSpecs = (v: unknown): boolean => listOf(v, metricSpec);
export const fitsMetricStatuses = (v: unknown): boolean => listOf(v, metricStatus);
export const fitsConditions = (v: unknown): boolean => listOf(v, condition);

/** A behavior with at least one direction, each with well-typed rules and policies. */
export function fitsBehavior(v: unknown): boolean {
  if (!isRecord(v) || !fits(v, { scaleUp: rules, scaleDown: rules })) return false;
  const directions = [v['scaleUp'], v['scaleDown']].filter((d) => d !== undefined && d !== null);
  return (
    directions.length > 0 &&
    directions.every((d) => {
      const policies = isRecord(d) ? d['policies'] : undefined;
      return policies === undefined || policies === null || listOf(policies, policy);
    })
  );
}
