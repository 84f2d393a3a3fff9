// GetWarningsForIP of k8s.io/apimachinery/pkg/util/validation/ip.go (1.33): legacy IP fields still
// take what Go's old net.ParseIP took (IPv4 parts with leading zeros, IPv4-mapped IPv6), and kube
// warns that such forms, and IPv6 not written as RFC 5952 says, will not always be accepted.
import { formatAddr, formatIPv6, is4In6, parseAddr, type Addr } from '../../machinery/netip/parse.js';
import { goQuote, type FieldPath } from '../../machinery/validation/index.js';

const decimalPart = /^[0-9]+$/;

/** The old net.ParseIP's IPv4: four decimal parts of at most 255, leading zeros allowed. */
function sloppyIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!decimalPart.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

/** netutils.ParseIPSloppy: the address, or undefined where it finds none (zones are refused). */
function parseSloppy(value: string): Addr | undefined {
  const colon = value.indexOf(':');
  const dot = value.indexOf('.');
  // As in Go, whichever separator comes first decides the family.
  if (colon < 0 || (dot >= 0 && dot < colon)) {
    const v4 = sloppyIPv4(value);
    return v4 === undefined ? undefined : { bits: 32, value: v4, zone: '' };
  }
  if (value.includes('%')) return undefined;
  const lastColon = value.lastIndexOf(':');
  const tail = value.slice(lastColon + 1);
  let text = value;
  if (tail.includes('.')) {
    // An embedded IPv4 tail may have leading zeros too; netip reads it once they are gone.
    const v4 = sloppyIPv4(tail);
    if (v4 === undefined) return undefined;
    text = `${value.slice(0, lastColon + 1)}${formatAddr({ bits: 32, value: v4, zone: '' })}`;
  }
  const parsed = parseAddr(text);
  return parsed.ok ? parsed.value : undefined;
}

/** net.IP's String(): an IPv4-mapped address prints as its IPv4 form. */
function netIPString(addr: Addr): string {
  if (addr.bits === 32 || is4In6(addr))
    return formatAddr({ bits: 32, value: addr.value & 0xffffffffn, zone: '' });
  return formatIPv6(addr.value);
}

/** A dotted quad as netip writes it: no check can find fault with it, so the common case ends here. */
function isCanonicalIPv4(value: string): boolean {
  let parts = 0;
  let start = 0;
  for (let i = 0; i <= value.length; i++) {
    if (i < value.length && value.charCodeAt(i) !== 0x2e) continue;
    const part = value.slice(start, i);
    if (part.length === 0 || part.length > 3 || (part.length > 1 && part.startsWith('0'))) return false;
    if (!decimalPart.test(part) || Number(part) > 255) return false;
    parts++;
    start = i + 1;
  }
  return parts === 4;
}

/**
 * The warnings for a legacy IP field at `path` (built only for a warning) holding `value`: none for a value validation should
 * have refused (kube only logs those), nor for a canonical one.
 */
export function warningsForIP(path: () => FieldPath, value: string): string[] {
  if (isCanonicalIPv4(value)) return [];
  const sloppy = parseSloppy(value);
  if (sloppy === undefined) return [];
  const strict = parseAddr(value);
  if (!strict.ok || is4In6(strict.value))
    return [
      `${path().toString()}: non-standard IP address ${goQuote(value)} will be considered invalid in a future Kubernetes release: use ${goQuote(netIPString(sloppy))}`,
    ];
  const canonical = formatAddr(strict.value);
  if (strict.value.bits === 128 && canonical !== value)
    return [
      `${path().toString()}: IPv6 address ${goQuote(value)} should be in RFC 5952 canonical format (${goQuote(canonical)})`,
    ];
  return [];
}
