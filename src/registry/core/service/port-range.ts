// --service-node-port-range values (k8s.io/apimachinery/pkg/util/net PortRange.Set and String):
// `30000-32767`, `30000+2767` or a single port, with that parser's errors.
export interface PortRange {
  readonly base: number;
  readonly size: number;
}

/** kube's default node port range. */
export const defaultNodePortRange: PortRange = { base: 30000, size: 2768 };

/** strconv.Atoi with Go's error text. */
function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s);
}

/** PortRange.Set; an empty value is the empty range. */
export function parsePortRange(value: string): PortRange {
  const v = value.trim();
  if (v === '') return { base: 0, size: 0 };
  const hyphen = v.indexOf('-');
  const plus = v.indexOf('+');
  let low: number;
  let high: number;
  if (hyphen >= 0 && plus >= 0) throw new Error(`unable to parse port range: ${v}`);
  if (hyphen >= 0) {
    low = atoi(v.slice(0, hyphen));
    high = atoi(v.slice(hyphen + 1));
  } else if (plus >= 0) {
    low = atoi(v.slice(0, plus));
    high = low + atoi(v.slice(plus + 1));
  } else {
    low = atoi(v);
    high = low;
  }
  if (low > 65535 || high > 65535) throw new Error(`the port range cannot be greater than 65535: ${v}`);
  if (high < low) throw new Error(`end port cannot be less than start port: ${v}`);
  return { base: low, size: 1 + high - low };
}

/** PortRange.String(). */
export function formatPortRange(pr: PortRange): string {
  return pr.size === 0 ? '' : `${pr.base}-${pr.base + pr.size - 1}`;
}
