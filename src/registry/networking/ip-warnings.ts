// GetWarningsForIP and GetWarningsForCIDR of k8s.io/apimachinery/pkg/util/validation/ip.go (v0.33):
// legacy IP and CIDR fields still take what netutils' sloppy parsers take (leading zeros,
// IPv4-mapped IPv6, host bits in a CIDR), and kube warns that such forms, and IPv6 not written as
// RFC 5952 says, will not always be accepted. Paths are built only for a warning.
import { formatAddr, formatPrefix, is4In6, parseAddr, parsePrefix } from '../../machinery/netip/parse.js';
import {
  ipNetString,
  maskIP,
  netIPString,
  parseCIDRSloppy,
  parseIPSloppy,
  sameIP,
} from '../../machinery/netip/sloppy.js';
import { goQuote, type FieldPath } from '../../machinery/validation/index.js';

/** A dotted quad as netip writes it: no check can find fault with it, so the common case ends here. */
function isCanonicalIPv4(value: string): boolean {
  let parts = 0;
  let digits = 0;
  let n = 0;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      if (digits === 0 || n > 255) return false;
      parts++;
      digits = 0;
      n = 0;
      continue;
    }
    if (c < 0x30 || c > 0x39 || (digits === 1 && n === 0)) return false;
    n = n * 10 + (c - 0x30);
    digits++;
  }
  return parts === 4;
}

/**
 * GetWarningsForIP: the warnings for a legacy IP field at `path` holding `value`: none for a value
 * validation should have refused (kube only logs those), nor for a canonical one.
 */
export function warningsForIP(path: () => FieldPath, value: string): string[] {
  if (isCanonicalIPv4(value)) return [];
  const sloppy = parseIPSloppy(value);
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

/**
 * GetWarningsForCIDR: host bits set (ambiguous), leading zeros or an IPv4-mapped address
 * (non-standard), else IPv6 not in RFC 5952 form; none for a value validation should have refused.
 */
export function warningsForCIDR(path: () => FieldPath, value: string): string[] {
  const cidr = parseCIDRSloppy(value);
  if (cidr === undefined) return [];
  const warnings: string[] = [];
  const network = ipNetString(cidr);
  if (!sameIP(cidr.ip, maskIP(cidr.ip, cidr)))
    warnings.push(
      `${path().toString()}: CIDR value ${goQuote(value)} is ambiguous in this context (should be ${goQuote(network)} or ${goQuote(`${netIPString(cidr.ip)}/${String(cidr.bits)}`)}?)`,
    );
  const prefix = parsePrefix(value);
  if (!prefix.ok || is4In6(prefix.value.addr))
    warnings.push(
      `${path().toString()}: non-standard CIDR value ${goQuote(value)} will be considered invalid in a future Kubernetes release: use ${goQuote(network)}`,
    );
  else if (warnings.length === 0 && prefix.value.addr.bits === 128) {
    const canonical = formatPrefix(prefix.value);
    if (canonical !== value)
      warnings.push(
        `${path().toString()}: IPv6 CIDR value ${goQuote(value)} should be in RFC 5952 canonical format (${goQuote(canonical)})`,
      );
  }
  return warnings;
}
