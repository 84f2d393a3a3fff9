// IsValidIP and IsValidCIDR of k8s.io/apimachinery/pkg/util/validation/ip.go (1.33): the strict
// forms new API fields (ServiceCIDR, IPAddress) are held to, with kube's messages for each way a
// value can fall short (leading zeros, zones, IPv4-mapped IPv6, host bits, an IP for a CIDR).
import { isIP } from 'node:net';
import { FieldError, type ErrorList, type FieldPath } from '../../machinery/validation/index.js';
import { formatIP, parseCIDR, parseIP } from '../core/service/ip-net.js';

const v4MappedPrefix = 0xffffn << 32n;
const isV4InV6 = (ip: { family: string; value: bigint }): boolean =>
  ip.family === 'IPv6' && ip.value >> 32n === 0xffffn && (ip.value & ~0xffffffffn) === v4MappedPrefix;

/** netutils.ParseIPSloppy accepts IPv4 parts with leading zeros (read as decimal). */
function parsesSloppy(value: string): boolean {
  return isIP(value.replace(/(^|\.)0+(?=\d)/g, '$1')) === 4 && /^[0-9.]+$/.test(value);
}

/** The strict parse of an IP, or the error kube reports for it. */
function strictIP(path: FieldPath, value: string): { family: 'IPv4' | 'IPv6'; value: bigint } | ErrorList {
  if (value === '') return [FieldError.required(path, 'expected an IP address')];
  const zone = value.indexOf('%');
  if (zone > 0 && isIP(value) === 6) {
    return [FieldError.invalid(path, value, 'IP address with zone specifier is not allowed')];
  }
  const ip = parseIP(value);
  if (ip === undefined) {
    if (parsesSloppy(value)) return [FieldError.invalid(path, value, 'IP address cannot have leading 0s')];
    if (parseCIDR(value) !== undefined) {
      return [
        FieldError.invalid(
          path,
          value,
          'expected an IP address (e.g. 10.9.8.7 or 2001:db8::ffff), got CIDR value',
        ),
      ];
    }
    return [FieldError.invalid(path, value, 'must be a valid IP address (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  }
  if (isV4InV6(ip)) return [FieldError.invalid(path, value, 'IPv4-mapped IPv6 address is not allowed')];
  return ip;
}

/** IsValidIP. */
export function isValidIP(path: FieldPath, value: string): ErrorList {
  const ip = strictIP(path, value);
  return Array.isArray(ip) ? ip : [];
}

/** The canonical text of a valid IP (Go's netip.Addr.String()), or undefined. */
export function canonicalIP(value: string): string | undefined {
  const ip = parseIP(value);
  return ip === undefined ? undefined : formatIP(ip.family, ip.value);
}

const cidrExample = '(e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** IsValidCIDR. */
export function isValidCIDR(path: FieldPath, value: string): ErrorList {
  if (value === '') return [FieldError.required(path, 'expected a CIDR value')];
  const slash = value.indexOf('/');
  const addr = slash < 0 ? value : value.slice(0, slash);
  const prefix = slash < 0 ? '' : value.slice(slash + 1);
  const ip = parseIP(addr);
  const prefixOk = /^(0|[1-9][0-9]{0,2})$/.test(prefix);
  const bits = ip?.family === 'IPv4' ? 32 : 128;
  if (ip === undefined || !prefixOk || Number(prefix) > bits) {
    const sloppyAddr = ip !== undefined || parsesSloppy(addr);
    const sloppyPrefix = /^[0-9]+$/.test(prefix) && Number(prefix) <= (isIP(addr) === 6 ? 128 : 32);
    if (slash >= 0 && sloppyAddr && sloppyPrefix) {
      const detail =
        value.includes('/0') && !value.endsWith('/0')
          ? 'prefix length in CIDR cannot have leading 0s'
          : 'IP address in CIDR cannot have leading 0s';
      return [FieldError.invalid(path, value, detail)];
    }
    if (slash < 0 && parseIP(value) !== undefined) {
      return [FieldError.invalid(path, value, `expected a valid CIDR value ${cidrExample}, got IP address`)];
    }
    return [FieldError.invalid(path, value, `must be a valid CIDR value ${cidrExample}`)];
  }
  if (isV4InV6(ip)) {
    return [FieldError.invalid(path, value, 'CIDR containing IPv4-mapped IPv6 address is not allowed')];
  }
  const hostBits = BigInt(bits - Number(prefix));
  if ((ip.value >> hostBits) << hostBits !== ip.value) {
    return [
      FieldError.invalid(path, value, 'CIDR value should not have any bits set beyond the prefix length'),
    ];
  }
  return [];
}

/** netutils.IPFamilyOfCIDRString: 'IPv4', 'IPv6' or '' when the value is no CIDR. */
export function cidrFamily(value: string): 'IPv4' | 'IPv6' | '' {
  return parseCIDR(value)?.family ?? '';
}
