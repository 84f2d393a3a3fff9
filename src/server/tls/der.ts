// Just enough ASN.1 DER (ITU-T X.690) to write an X.509 certificate. Signing and keys stay with
// node:crypto; this only lays out bytes.

export type Der = Buffer;

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, ...content: readonly Buffer[]): Der {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

export const sequence = (...items: readonly Der[]): Der => tlv(0x30, ...items);
export const set = (...items: readonly Der[]): Der => tlv(0x31, ...items);
export const boolean = (v: boolean): Der => tlv(0x01, Buffer.from([v ? 0xff : 0]));
export const octetString = (bytes: Buffer): Der => tlv(0x04, bytes);
export const utf8String = (s: string): Der => tlv(0x0c, Buffer.from(s, 'utf8'));
/** [n] EXPLICIT: a constructed context-specific wrapper. */
export const explicit = (n: number, inner: Der): Der => tlv(0xa0 | n, inner);
/** [n] IMPLICIT on a primitive type: the content with a context-specific tag. */
export const implicit = (n: number, content: Buffer): Der => tlv(0x80 | n, content);

/** A non-negative INTEGER from big-endian bytes. */
export function unsignedInteger(bytes: Buffer): Der {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const trimmed = bytes.subarray(i);
  const pad = (trimmed[0] ?? 0) & 0x80 ? Buffer.from([0]) : Buffer.alloc(0);
  return tlv(0x02, pad, trimmed.length === 0 ? Buffer.from([0]) : trimmed);
}

export const smallInteger = (n: number): Der => unsignedInteger(Buffer.from([n]));

export function oid(dotted: string): Der {
  const arcs = dotted.split('.').map(Number);
  const [first = 0, second = 0, ...rest] = arcs;
  const out: number[] = [first * 40 + second];
  for (const arc of rest) {
    const chunk: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** A BIT STRING holding whole bytes (public keys, signatures). */
export const bitString = (bytes: Buffer): Der => tlv(0x03, Buffer.from([0]), bytes);

/** A BIT STRING of named bits (bit 0 first), trailing zero bits dropped as DER requires. */
export function namedBits(bits: readonly number[]): Der {
  const top = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(top / 8) + 1);
  for (const b of bits) bytes[Math.floor(b / 8)] = (bytes[Math.floor(b / 8)] ?? 0) | (0x80 >> (b % 8));
  const unused = 7 - (top % 8);
  return tlv(0x03, Buffer.from([unused]), bytes);
}

const two = (n: number): string => String(n).padStart(2, '0');

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 4.1.2.5). */
export function time(d: Date): Der {
  const hms = `${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`;
  const year = d.getUTCFullYear();
  return year < 2050
    ? tlv(0x17, Buffer.from(`${two(year % 100)}${hms}`, 'ascii'))
    : tlv(0x18, Buffer.from(`${year}${hms}`, 'ascii'));
}
