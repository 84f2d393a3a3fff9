// The checks LimitRanger makes of one resource (plugin/pkg/admission/limitranger/admission.go
// minConstraint, maxConstraint, maxRequestConstraint, limitRequestRatioConstraint), with kube's texts.
// Values are compared in thousandths when all three fit, else in whole units, as kube does.
import {
  milliValue,
  quantityString,
  scaledValue,
  type Quantity,
} from '../../../machinery/quantity/quantity.js';
import type { ResourceAmounts } from '../pod-resources.js';

/** resource.MaxMilliValue. */
const maxMilliValue = (2n ** 63n - 1n) / 1000n;

const zero: Quantity = { unscaled: 0n, exponent: 0, format: 'DecimalSI' };

/** requestLimitEnforcedValues: the three at one precision. */
function comparable(req: Quantity, lim: Quantity, enforced: Quantity): [bigint, bigint, bigint] {
  const whole = [req, lim, enforced].map((q) => scaledValue(q, 0));
  if (whole.every((v) => v <= maxMilliValue)) return [milliValue(req), milliValue(lim), milliValue(enforced)];
  return [whole[0] ?? 0n, whole[1] ?? 0n, whole[2] ?? 0n];
}

export interface ConstraintInput {
  readonly limitType: string;
  readonly resource: string;
  readonly enforced: Quantity;
  readonly requests: ResourceAmounts;
  readonly limits: ResourceAmounts;
}

const text = quantityString;

export function minConstraint(c: ConstraintInput): string | undefined {
  const req = c.requests.get(c.resource);
  const lim = c.limits.get(c.resource);
  const [r, l, e] = comparable(req ?? zero, lim ?? zero, c.enforced);
  const head = `minimum ${c.resource} usage per ${c.limitType} is ${text(c.enforced)}`;
  if (req === undefined) return `${head}.  No request is specified`;
  if (r < e) return `${head}, but request is ${text(req)}`;
  if (lim !== undefined && l < e) return `${head}, but limit is ${text(lim)}`;
  return undefined;
}

/** For objects whose limits are not user input (claims): the max holds for the request. */
export function maxRequestConstraint(c: ConstraintInput): string | undefined {
  const req = c.requests.get(c.resource);
  const [r, , e] = comparable(req ?? zero, zero, c.enforced);
  const head = `maximum ${c.resource} usage per ${c.limitType} is ${text(c.enforced)}`;
  if (req === undefined) return `${head}.  No request is specified`;
  if (r > e) return `${head}, but request is ${text(req)}`;
  return undefined;
}

export function maxConstraint(c: ConstraintInput): string | undefined {
  const req = c.requests.get(c.resource);
  const lim = c.limits.get(c.resource);
  const [r, l, e] = comparable(req ?? zero, lim ?? zero, c.enforced);
  const head = `maximum ${c.resource} usage per ${c.limitType} is ${text(c.enforced)}`;
  if (lim === undefined) return `${head}.  No limit is specified`;
  if (l > e) return `${head}, but limit is ${text(lim)}`;
  if (req !== undefined && r > e) return `${head}, but request is ${text(req)}`;
  return undefined;
}

export function limitRequestRatioConstraint(c: ConstraintInput): string | undefined {
  const req = c.requests.get(c.resource);
  const lim = c.limits.get(c.resource);
  const [r, l] = comparable(req ?? zero, lim ?? zero, c.enforced);
  const head = `${c.resource} max limit to request ratio per ${c.limitType} is ${text(c.enforced)}`;
  if (req === undefined || r === 0n) return `${head}, but no request is specified or request is 0`;
  if (lim === undefined || l === 0n) return `${head}, but no limit is specified or limit is 0`;
  const observed = Number(l) / Number(r);
  const enforcedWhole = scaledValue(c.enforced, 0);
  const milli = enforcedWhole <= maxMilliValue;
  const max = Number(milli ? milliValue(c.enforced) : enforcedWhole);
  if ((milli ? observed * 1000 : observed) > max)
    return `${head}, but provided ratio is ${observed.toFixed(6)}`;
  return undefined;
}

/** utilerrors.NewAggregate(errs).Error(): one message as is, several deduplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}
