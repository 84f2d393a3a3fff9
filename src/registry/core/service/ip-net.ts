// IP addresses and CIDRs as numbers (k8s.io/utils/net, as the service IP allocator uses it): parsing
// with Go's rules for the forms kube accepts, family detection and formatting.
import { isIPv4, isIPv6 } from 'node:net';
import { formatIPv6 } from '../../../machinery/netip/parse.js';

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

function parseV4(s: string): bigint {
  return s.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseV6(s: string): bigint {
  let text = s;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // An embedded IPv4 tail (::ffff:1.2.3.4) is the last two groups.
    const v4 = parseV4(last);
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const groups = (p: string): bigint[] => (p === '' ? [] : p.split(':').map((g) => BigInt(parseInt(g, 16))));
  const h = groups(head);
  const r = rest === undefined ? [] : groups(rest);
  const fill = rest === undefined ? 0 : 8 - h.length - r.length;
  return [...h, ...Array<bigint>(fill).fill(0n), ...r].reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** An IP as a number with its family, or undefined when the text is not an IP address. */
export function parseIP(s: string): { family: Family; value: bigint } | undefined {
  if (isIPv4(s)) {
    // Go's netip refuses leading zeros; so does kube's strict IP validation.
    if (s.split('.').some((p) => p.length > 1 && p.startsWith('0'))) return undefined;
    return { family: 'IPv4', value: parseV4(s) };
  }
  if (isIPv6(s) && !s.includes('%')) return { family: 'IPv6', value: parseV6(s) };
  return undefined;
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

/** Parses `a.b.c.d/n` or `x::/n` to its network (host bits cleared), as Go's ParseCIDR. */
export function parseCIDR(s: string): IPNet | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(s.slice(0, slash));
  const prefix = s.slice(slash + 1);
  if (ip === undefined || !/^[0-9]{1,3}$/.test(prefix)) return undefined;
  const bits = ip.family === 'IPv4' ? 32 : 128;
  const ones = Number(prefix);
  if (ones > bits) return undefined;
  const hostBits = BigInt(bits - ones);
  const base = (ip.value >> hostBits) << hostBits;
  return { family: ip.family, base, ones, bits };
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
