// Go's net/netip ParseAddr and ParsePrefix: what they accept (dotted quads without leading zeros,
// IPv6 with one `::`, an embedded IPv4 tail and a zone), the value they read, and their error
// texts, which kube's CEL IP and CIDR libraries pass on.
import { goQuote } from '../validation/index.js';

/** An address: 32 or 128 bits, the value, and an IPv6 zone ('' when none). */
export interface Addr {
  readonly bits: 32 | 128;
  readonly value: bigint;
  readonly zone: string;
}

/** An address and a prefix length (the address's host bits not cleared). */
export interface Prefix {
  readonly addr: Addr;
  readonly prefixBits: number;
}

export type NetParse<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

class AddrError extends Error {
  constructor(input: string, msg: string, at = '') {
    super(`ParseAddr(${goQuote(input)}): ${msg}${at === '' ? '' : ` (at ${goQuote(at)})`}`);
  }
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';

function parseIPv4(s: string): bigint {
  const fields: number[] = [];
  let val = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (isDigit(c)) {
      if (digits === 1 && val === 0) throw new AddrError(s, 'IPv4 field has octet with leading zero');
      val = val * 10 + Number(c);
      digits++;
      if (val > 255) throw new AddrError(s, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s.charAt(i - 1) === '.')
        throw new AddrError(s, 'IPv4 field must have at least one digit', s.slice(i));
      if (fields.length === 3) throw new AddrError(s, 'IPv4 address too long');
      fields.push(val);
      val = 0;
      digits = 0;
    } else throw new AddrError(s, 'unexpected character', s.slice(i));
  }
  if (fields.length < 3) throw new AddrError(s, 'IPv4 address too short');
  fields.push(val);
  return fields.reduce((acc, f) => (acc << 8n) | BigInt(f), 0n);
}

const hexValue = (c: string): number => {
  if (isDigit(c)) return Number(c);
  const lower = c.toLowerCase();
  return lower >= 'a' && lower <= 'f' && c.length === 1 ? lower.charCodeAt(0) - 87 : -1;
};

/** The 16 bytes of an IPv6 address (without its zone). */
function parseIPv6Bytes(input: string, text: string): number[] {
  const ip = new Array<number>(16).fill(0);
  let s = text;
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return ip;
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexValue(s.charAt(off));
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3) throw new AddrError(input, 'each group must have 4 or less digits', s);
      if (acc > 0xffff) throw new AddrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw new AddrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s.charAt(off) === '.') {
      if (ellipsis < 0 && i !== 12)
        throw new AddrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16)
        throw new AddrError(
          input,
          'too many hex fields to fit an embedded IPv4 at the end of the address',
          s,
        );
      let v4: bigint;
      try {
        v4 = parseIPv4(s);
      } catch (err) {
        throw new AddrError(input, (err as Error).message, s);
      }
      for (let b = 0; b < 4; b++) ip[i + b] = Number((v4 >> BigInt(24 - 8 * b)) & 0xffn);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s.charAt(0) !== ':') throw new AddrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw new AddrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s.charAt(0) === ':') {
      if (ellipsis >= 0) throw new AddrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') throw new AddrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw new AddrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j] ?? 0;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) throw new AddrError(input, 'the :: must expand to at least one field of zeros');
  return ip;
}

function parseIPv6(input: string): Addr {
  let s = input;
  let zone = '';
  const percent = s.indexOf('%');
  if (percent !== -1) {
    zone = s.slice(percent + 1);
    s = s.slice(0, percent);
    if (zone === '') throw new AddrError(input, 'zone must be a non-empty string');
  }
  const bytes = parseIPv6Bytes(input, s);
  return { bits: 128, value: bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n), zone };
}

function parseAddrOrThrow(s: string): Addr {
  for (const c of s) {
    if (c === '.') return { bits: 32, value: parseIPv4(s), zone: '' };
    if (c === ':') return parseIPv6(s);
    if (c === '%') throw new AddrError(s, 'missing IPv6 address');
  }
  throw new AddrError(s, 'unable to parse IP');
}

/** netip.ParseAddr. */
export function parseAddr(s: string): NetParse<Addr> {
  try {
    return { ok: true, value: parseAddrOrThrow(s) };
  } catch (err) {
    if (err instanceof AddrError) return { ok: false, error: err.message };
    throw err;
  }
}

const maxInt64 = (1n << 63n) - 1n;

/** netip.ParsePrefix: an address, a slash and a decimal length without sign or leading zero. */
export function parsePrefix(s: string): NetParse<Prefix> {
  const fail = (msg: string): NetParse<Prefix> => ({
    ok: false,
    error: `netip.ParsePrefix(${goQuote(s)}): ${msg}`,
  });
  const slash = s.lastIndexOf('/');
  if (slash < 0) return fail("no '/'");
  const addr = parseAddr(s.slice(0, slash));
  if (!addr.ok) return fail(addr.error);
  if (addr.value.zone !== '') return fail('IPv6 zones cannot be present in a prefix');
  const bitsText = s.slice(slash + 1);
  const badBits = `bad bits after slash: ${goQuote(bitsText)}`;
  if (bitsText.length > 1 && !(bitsText.charAt(0) >= '1' && bitsText.charAt(0) <= '9')) return fail(badBits);
  // strconv.Atoi: digits with an optional sign, within an int64.
  if (!/^[+-]?\d+$/.test(bitsText) || BigInt(bitsText) > maxInt64 || BigInt(bitsText) < -maxInt64 - 1n)
    return fail(badBits);
  const prefixBits = Number(bitsText);
  if (prefixBits < 0 || prefixBits > addr.value.bits) return fail('prefix length out of range');
  return { ok: true, value: { addr: addr.value, prefixBits } };
}

/** Whether an IPv6 address is an IPv4-mapped one (::ffff:a.b.c.d). */
export const is4In6 = (a: Addr): boolean => a.bits === 128 && a.value >> 32n === 0xffffn;

/** Addr.String(): a dotted quad, or RFC 5952 IPv6 (an IPv4-mapped one with a dotted tail), then the zone. */
export function formatAddr(a: Addr): string {
  const v4 = (v: bigint): string => [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');
  if (a.bits === 32) return v4(a.value);
  const zone = a.zone === '' ? '' : `%${a.zone}`;
  if (is4In6(a)) return `::ffff:${v4(a.value & 0xffffffffn)}${zone}`;
  return formatIPv6(a.value) + zone;
}

/** An IPv6 address as RFC 5952 writes it: lower-case hex, the first longest run of zero groups as `::`. */
export function formatIPv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (gs: number[]): string => gs.map((g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}

/** Prefix.String(): the address as given, a slash, the length. */
export const formatPrefix = (p: Prefix): string => `${formatAddr(p.addr)}/${p.prefixBits}`;

/** The address with its bits past the prefix length cleared. */
export function maskedAddr(p: Prefix): Addr {
  const host = BigInt(p.addr.bits - p.prefixBits);
  return { bits: p.addr.bits, value: (p.addr.value >> host) << host, zone: '' };
}

/** Prefix.Contains: an address of the same family, without a zone, within the prefix. */
export function prefixContains(p: Prefix, a: Addr): boolean {
  if (a.bits !== p.addr.bits || a.zone !== '') return false;
  const host = BigInt(p.addr.bits - p.prefixBits);
  return a.value >> host === p.addr.value >> host;
}
