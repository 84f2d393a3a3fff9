// Builds PEM certificate signing requests for tests: an ECDSA P-256 key and a PKCS#10 request
// signed by it, DER written by hand (node:crypto makes keys and signatures, not requests).
import { Buffer } from 'node:buffer';
import { generateKeyPairSync, sign } from 'node:crypto';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, content: Buffer): Buffer =>
  Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));

function oid(text: string): Buffer {
  const [a = 0, b = 0, ...rest] = text.split('.').map(Number);
  const bytes = [a * 40 + b];
  for (const n of rest) {
    const chunk: number[] = [n % 128];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v % 128));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

const pem = (type: string, der: Buffer): string =>
  `-----BEGIN ${type}-----\n${(der.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n-----END ${type}-----\n`;

export interface TestCSR {
  /** The PEM request. */
  readonly pem: string;
  /** Base64 of the PEM, as spec.request carries it. */
  readonly request: string;
  /** The DER of the whole request, to corrupt in tests. */
  readonly der: Buffer;
}

/** A request for CN=`commonName` (O=`organization` when given), signed with ecdsa-with-SHA256. */
export function newTestCSR(commonName: string, organization?: string): TestCSR {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rdn = (type: string, value: string): Buffer =>
    tlv(0x31, seq(oid(type), tlv(0x0c, Buffer.from(value, 'utf8'))));
  const name = seq(
    ...(organization === undefined ? [] : [rdn('2.5.4.10', organization)]),
    rdn('2.5.4.3', commonName),
  );
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const info = seq(tlv(0x02, Buffer.from([0])), name, spki, tlv(0xa0, Buffer.alloc(0)));
  const signature = sign('sha256', info, privateKey);
  const der = seq(
    info,
    seq(oid('1.2.840.10045.4.3.2')),
    tlv(0x03, Buffer.concat([Buffer.from([0]), signature])),
  );
  const text = pem('CERTIFICATE REQUEST', der);
  return { pem: text, request: Buffer.from(text).toString('base64'), der };
}

/** `der` re-wrapped as a PEM request, base64 as spec.request carries it. */
export function requestOf(der: Buffer, type = 'CERTIFICATE REQUEST'): string {
  return Buffer.from(pem(type, der)).toString('base64');
}
