// k8s.io/utils/net's ParseIPSloppy and ParseCIDRSloppy (a fork of Go 1.16's net.ParseIP and
// net.ParseCIDR that kube keeps for stored values): IPv4 parts and IPv6 groups may carry leading
// zeros, an IPv6 zone is refused, and the result is a 16-byte net.IP (an IPv4 address held
// IPv4-mapped). Also net.IP's String() and the few net.IP tests kube's validation asks of one.
import { formatIPv6 } from './parse.js';

/** Go's net.IP: 16 bytes, an IPv4 address as ::ffff:a.b.c.d. */
export type NetIP = Uint8Array;

/** A CIDR as ParseCIDRSloppy reads it: the IP as written, its length and the prefix length. */
export interface SloppyCIDR {
  readonly ip: NetIP;
  /** 32 when the address part is a dotted quad, else 128 (as Go's mask length). */
  readonly bits: 32 | 128;
  readonly prefixBits: number;
}

// Go's dtoi and xtoi give up at this value.
const big = 0xffffff;

// Parsing writes here; callers that keep the result copy it. Parsing is synchronous, so one
// buffer serves every server in the process, and the common case (a check) allocates nothing.
const scratch = new Uint8Array(16);

/** A hex digit's value, or -1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/** forked parseIPv4 of s[from:]: writes ::ffff:a.b.c.d at out[at - 12 ..]; false when it is none. */
function readIPv4(s: string, from: number, out: { buf: Uint8Array; at: number }): boolean {
  let i = from;
  for (let part = 0; part < 4; part++) {
    if (i >= s.length) return false;
    if (part > 0) {
      if (s.charCodeAt(i) !== 0x2e) return false;
      i++;
    }
    let n = 0;
    const start = i;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      n = n * 10 + (c - 0x30);
      if (n >= big) return false;
    }
    if (i === start || n > 0xff) return false;
    out.buf[out.at + part] = n;
  }
  return i === s.length;
}

const v4Target = { buf: scratch, at: 12 };

function writeV4MappedPrefix(buf: Uint8Array): void {
  buf.fill(0, 0, 10);
  buf[10] = 0xff;
  buf[11] = 0xff;
}

/** forked parseIPv4 of the whole string into scratch. */
function parseV4(s: string): boolean {
  writeV4MappedPrefix(scratch);
  return readIPv4(s, 0, v4Target);
}

/** forked parseIPv6 into scratch. */
function parseV6(s: string): boolean {
  scratch.fill(0);
  let pos = 0;
  let ellipsis = -1;
  if (s.length >= 2 && s.charCodeAt(0) === 0x3a && s.charCodeAt(1) === 0x3a) {
    ellipsis = 0;
    pos = 2;
    if (pos === s.length) return true;
  }
  let i = 0;
  while (i < 16) {
    let n = 0;
    let c = pos;
    for (; c < s.length; c++) {
      const d = hexDigit(s.charCodeAt(c));
      if (d < 0) break;
      n = n * 16 + d;
      if (n >= big) return false;
    }
    if (c === pos || n > 0xffff) return false;
    if (c < s.length && s.charCodeAt(c) === 0x2e) {
      if ((ellipsis < 0 && i !== 12) || i + 4 > 16) return false;
      if (!readIPv4(s, pos, { buf: scratch, at: i })) return false;
      pos = s.length;
      i += 4;
      break;
    }
    scratch[i] = n >> 8;
    scratch[i + 1] = n & 0xff;
    i += 2;
    pos = c;
    if (pos === s.length) break;
    if (s.charCodeAt(pos) !== 0x3a || pos + 1 === s.length) return false;
    pos++;
    if (s.charCodeAt(pos) === 0x3a) {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      pos++;
      if (pos === s.length) break;
    }
  }
  if (pos !== s.length) return false;
  if (i < 16) {
    if (ellipsis < 0) return false;
    const shift = 16 - i;
    scratch.copyWithin(ellipsis + shift, ellipsis, i);
    scratch.fill(0, ellipsis, ellipsis + shift);
  } else if (ellipsis >= 0) return false;
  return true;
}

/** forked ParseIP into scratch: the first '.' or ':' decides the family; 0 when it is no IP. */
function parseInto(s: string): 0 | 4 | 6 {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2e) return parseV4(s) ? 4 : 0;
    if (c === 0x3a) return parseV6(s) ? 6 : 0;
  }
  return 0;
}

/** Whether netutils.ParseIPSloppy reads an IP in the text (allocates nothing). */
export function isIPSloppy(s: string): boolean {
  return parseInto(s) !== 0;
}

/** netutils.ParseIPSloppy: the 16-byte IP, or undefined. */
export function parseIPSloppy(s: string): NetIP | undefined {
  return parseInto(s) === 0 ? undefined : scratch.slice();
}

/** Whether the 16 bytes are ::ffff:a.b.c.d (net.IP's To4() is not nil). */
export function isV4Mapped(ip: NetIP): boolean {
  for (let i = 0; i < 10; i++) if (ip[i] !== 0) return false;
  return ip[10] === 0xff && ip[11] === 0xff;
}

/**
 * The family netutils gives a sloppily parsed IP ('IPv4' for an IPv4-mapped IPv6 address, as
 * net.IP's To4 sees it), or undefined for no IP; allocates nothing.
 */
export function sloppyIPFamily(s: string): 'IPv4' | 'IPv6' | undefined {
  if (parseInto(s) === 0) return undefined;
  return isV4Mapped(scratch) ? 'IPv4' : 'IPv6';
}

/** netutils.ParseCIDRSloppy: the IP as written and the prefix length, or undefined. */
export function parseCIDRSloppy(s: string): SloppyCIDR | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  let bits: 32 | 128 = 32;
  if (!parseV4(addr)) {
    bits = 128;
    if (!parseV6(addr)) return undefined;
  }
  let n = 0;
  let i = slash + 1;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
    n = n * 10 + (c - 0x30);
    if (n >= big) return undefined;
  }
  if (i === slash + 1 || n > bits) return undefined;
  return { ip: scratch.slice(), bits, prefixBits: n };
}

/** The IP with the bits past the first `prefixBits` of its `bits`-bit form cleared. */
export function maskIP(ip: NetIP, cidr: { bits: 32 | 128; prefixBits: number }): NetIP {
  const out = ip.slice();
  const ones = cidr.prefixBits + (cidr.bits === 32 ? 96 : 0);
  for (let i = 0; i < 16; i++) {
    const keep = Math.min(8, Math.max(0, ones - i * 8));
    out[i] = (out[i] ?? 0) & ((0xff00 >> keep) & 0xff);
  }
  return out;
}

const dotted = (ip: NetIP): string =>
  `${String(ip[12])}.${String(ip[13])}.${String(ip[14])}.${String(ip[15])}`;

/** net.IP's String(): a dotted quad for an IPv4(-mapped) address, else RFC 5952 IPv6. */
export function netIPString(ip: NetIP): string {
  if (isV4Mapped(ip)) return dotted(ip);
  let value = 0n;
  for (const b of ip) value = (value << 8n) | BigInt(b);
  return formatIPv6(value);
}

/** net.IPNet's String() of the network ParseCIDRSloppy gives: an IPv4-mapped one prints as IPv4. */
export function ipNetString(cidr: SloppyCIDR): string {
  const network = maskIP(cidr.ip, cidr);
  const ones = isV4Mapped(network) && cidr.bits === 128 ? cidr.prefixBits - 96 : cidr.prefixBits;
  return `${netIPString(network)}/${String(ones)}`;
}

/** Whether two net.IPs are one address. */
export function sameIP(a: NetIP, b: NetIP): boolean {
  for (let i = 0; i < 16; i++) if (a[i] !== b[i]) return false;
  return true;
}
