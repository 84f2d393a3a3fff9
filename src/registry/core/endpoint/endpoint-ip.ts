// ValidateEndpointIP (pkg/apis/core/validation/validation.go, 1.33), shared by Endpoints and
// EndpointSlice addresses: what netutils.ParseIPSloppy reads, and not an address that makes no sense
// as an endpoint (unspecified, loopback, link-local, link-local multicast), as net.IP classifies it
// (an IPv4-mapped IPv6 address by its IPv4 part).
import { isV4Mapped, parseIPSloppy, type NetIP } from '../../../machinery/netip/sloppy.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../machinery/validation/index.js';

/** net.IP's IsUnspecified, IsLoopback, IsLinkLocalUnicast and IsLinkLocalMulticast. */
function classify(ip: NetIP): {
  unspecified: boolean;
  loopback: boolean;
  linkLocal: boolean;
  llMulticast: boolean;
} {
  const [a = 0, b = 0] = ip;
  if (isV4Mapped(ip)) {
    const [p = 0, q = 0, r = 0, s = 0] = ip.subarray(12);
    return {
      unspecified: p === 0 && q === 0 && r === 0 && s === 0,
      loopback: p === 127,
      linkLocal: p === 169 && q === 254,
      llMulticast: p === 224 && q === 0 && r === 0,
    };
  }
  const zerosThen = (last: number): boolean => ip.every((v, i) => v === (i === 15 ? last : 0));
  return {
    unspecified: zerosThen(0),
    loopback: zerosThen(1),
    linkLocal: a === 0xfe && (b & 0xc0) === 0x80,
    llMulticast: a === 0xff && (b & 0x0f) === 0x02,
  };
}

/** ValidateEndpointIP. */
export function validateEndpointIP(value: string, path: FieldPath): ErrorList {
  const ip = parseIPSloppy(value);
  if (ip === undefined) return [FieldError.invalid(path, value, 'must be a valid IP address')];
  const kind = classify(ip);
  const errs: ErrorList = [];
  if (kind.unspecified) errs.push(FieldError.invalid(path, value, `may not be unspecified (${value})`));
  if (kind.loopback)
    errs.push(FieldError.invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (kind.linkLocal)
    errs.push(
      FieldError.invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'),
    );
  if (kind.llMulticast)
    errs.push(
      FieldError.invalid(
        path,
        value,
        'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      ),
    );
  return errs;
}
