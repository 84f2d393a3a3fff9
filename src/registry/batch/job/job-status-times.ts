// startTime and completionTime as kube holds them (*metav1.Time): compared as instants, and
// shown in a message as metav1.Time marshals, RFC 3339 in UTC to the second.
import { rfc3339 } from '../../../machinery/time/rfc3339.js';

/** ptr.Equal on two *metav1.Time: both unset, or both the same instant. */
export function sameTime(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isNaN(ta) || Number.isNaN(tb) ? a === b : ta === tb;
}

/** a.Before(b), for two set times. */
export function isBefore(a: string, b: string): boolean {
  return Date.parse(a) < Date.parse(b);
}

/** The bad value a field error shows for a time: its JSON text, a quoted RFC 3339 UTC string. */
export function timeBadValue(t: string): string {
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? t : rfc3339(new Date(ms));
}
