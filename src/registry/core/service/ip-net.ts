// IP addresses and CIDRs as numbers (k8s.io/utils/net, as the service IP allocator uses it): parsing
// as netutils' sloppy parsers do, family detection and formatting.
import { formatIPv6 } from '../../../machinery/netip/parse.js';
import {
  isV4Mapped,
  maskIP,
  parseCIDRSloppy,
  parseIPSloppy,
  type NetIP,
} from '../../../machinery/netip/sloppy.js';

export type Family = 'IPv4' | 'IPv6';

export interface IPNet {
  readonly family: Family;
  /** The network address. */
  readonly base: bigint;
  /** Prefix length. */
  readonly ones: number;
  /** Address length in bits (32 or 128). */
  readonly bits: number;
}

/**
 * An IP as a number with its family, or undefined when the text is not an IP address: read as
 * netutils.ParseIPSloppy reads it (IPv4 parts may have leading zeros, zones are refused), and an
 * IPv4-mapped IPv6 address is the IPv4 address, as net.IP's To4 makes it.
 */
export function parseIP(s: string): { family: Family; value: bigint } | undefined {
  const ip = parseIPSloppy(s);
  return ip === undefined ? undefined : numbered(ip);
}

/** A net.IP as its family and number. */
function numbered(ip: NetIP): { family: Family; value: bigint } {
  const v4 = isV4Mapped(ip);
  let value = 0n;
  for (let i = v4 ? 12 : 0; i < 16; i++) value = (value << 8n) | BigInt(ip[i] ?? 0);
  return { family: v4 ? 'IPv4' : 'IPv6', value };
}

export function familyOf(s: string): Family | undefined {
  return parseIP(s)?.family;
}

/** Formats as Go's net.IP.String(): dotted quad, or RFC 5952 for IPv6. */
export function formatIP(family: Family, value: bigint): string {
  if (family === 'IPv4') {
    return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  }
  return formatIPv6(value);
}

/** The network of a CIDR (host bits cleared), as netutils.ParseCIDRSloppy reads it, or undefined. */
export function parseCIDR(s: string): IPNet | undefined {
  const cidr = parseCIDRSloppy(s);
  if (cidr === undefined) return undefined;
  // As net.IPNet does, a network of IPv4-mapped addresses is an IPv4 network.
  const network = numbered(maskIP(cidr.ip, cidr));
  const v4 = network.family === 'IPv4';
  const ones = v4 && cidr.bits === 128 ? cidr.prefixBits - 96 : cidr.prefixBits;
  return { family: network.family, base: network.value, ones, bits: v4 ? 32 : 128 };
}

/** Go's IPNet.String(). */
export function formatCIDR(net: IPNet): string {
  return `${formatIP(net.family, net.base)}/${net.ones}`;
}

/** Number of addresses in the network. */
export function rangeSize(net: IPNet): bigint {
  return 1n << BigInt(net.bits - net.ones);
}

export function cidrContains(net: IPNet, ip: { family: Family; value: bigint }): boolean {
  return ip.family === net.family && ip.value >= net.base && ip.value < net.base + rangeSize(net);
}
