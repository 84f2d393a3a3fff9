// Reading ASN.1 DER (ITU-T X.690): the elements of a certificate or certificate request, walked
// by offset without copying. Only definite lengths, as DER requires.

/** One element: its tag and where its header and content lie in the buffer. */
export interface Tlv {
  readonly tag: number;
  /** Offset of the tag byte. */
  readonly begin: number;
  /** Offset of the first content byte. */
  readonly start: number;
  /** Offset just past the element. */
  readonly end: number;
}

/** The bytes do not hold the structure expected; `message` is what the caller reports. */
export class DerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DerError';
  }
}

export const tags = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  IA5_STRING: 0x16,
  BMP_STRING: 0x1e,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

/** The element at `at`, which must end by `limit`; `malformed` is the error's text. */
export function readTlv(der: Buffer, at: number, opts: { limit: number; malformed: string }): Tlv {
  const { limit, malformed } = opts;
  if (at + 2 > limit) throw new DerError(malformed);
  const tag = der[at] ?? 0;
  let len = der[at + 1] ?? 0;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > limit) throw new DerError(malformed);
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (der[start + i] ?? 0);
    start += n;
  }
  const end = start + len;
  if (end > limit) throw new DerError(malformed);
  return { tag, begin: at, start, end };
}

/** The one element `der` holds, whole. */
export function readWhole(der: Buffer, malformed: string): Tlv {
  const top = readTlv(der, 0, { limit: der.length, malformed });
  if (top.end !== der.length) throw new DerError(malformed);
  return top;
}

/** The children of a constructed element. */
export function children(der: Buffer, parent: Tlv, malformed: string): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end;) {
    const child = readTlv(der, at, { limit: parent.end, malformed });
    out.push(child);
    at = child.end;
  }
  return out;
}

export const contentOf = (der: Buffer, t: Tlv): Buffer => der.subarray(t.start, t.end);
export const elementOf = (der: Buffer, t: Tlv): Buffer => der.subarray(t.begin, t.end);

/** An OBJECT IDENTIFIER's content as dotted text. */
export function oidText(bytes: Buffer): string {
  const first = bytes[0] ?? 0;
  const parts = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  let value = 0;
  for (const b of bytes.subarray(1)) {
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** A directory string's text: UTF8String, PrintableString, IA5String, T61String or BMPString. */
export function directoryString(der: Buffer, value: Tlv): string {
  const bytes = contentOf(der, value);
  if (value.tag === tags.BMP_STRING) return Buffer.from(bytes).swap16().toString('utf16le');
  return bytes.toString(value.tag === tags.UTF8_STRING ? 'utf8' : 'latin1');
}
