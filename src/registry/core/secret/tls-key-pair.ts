// The check behind the TLS secret warning (warningsForSecret in pkg/registry/core/secret/strategy.go):
// Go's tls.X509KeyPair over tls.crt and tls.key, with its error texts.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';

interface PemBlock {
  readonly type: string;
  readonly der: Buffer;
}

/** pem.Decode repeated: every well-formed PEM block in the input, in order. */
function pemBlocks(input: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  const re = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
  for (const m of input.matchAll(re)) {
    const body = (m[2] ?? '').split(/\r?\n/).filter((l) => !l.includes(':'));
    blocks.push({ type: m[1] ?? '', der: Buffer.from(body.join(''), 'base64') });
  }
  return blocks;
}

/** %v of a []string. */
const goList = (items: readonly string[]): string => `[${items.join(' ')}]`;

function certificateDer(certPem: string): Buffer {
  const blocks = pemBlocks(certPem);
  const certs = blocks.filter((b) => b.type === 'CERTIFICATE');
  const skipped = blocks.filter((b) => b.type !== 'CERTIFICATE').map((b) => b.type);
  const first = certs[0];
  if (first !== undefined) return first.der;
  if (skipped.length === 0) throw new Error('tls: failed to find any PEM data in certificate input');
  if (skipped.length === 1 && (skipped[0] ?? '').endsWith('PRIVATE KEY')) {
    throw new Error(
      'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
    );
  }
  throw new Error(
    `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${goList(skipped)}`,
  );
}

function keyDer(keyPem: string): Buffer {
  const skipped: string[] = [];
  for (const b of pemBlocks(keyPem)) {
    if (b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY')) return b.der;
    skipped.push(b.type);
  }
  if (skipped.length === 0) throw new Error('tls: failed to find any PEM data in key input');
  if (skipped.length === 1 && skipped[0] === 'CERTIFICATE') {
    throw new Error('tls: found a certificate rather than a key in the PEM for the private key');
  }
  throw new Error(
    `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${goList(skipped)}`,
  );
}

/** tls.parsePrivateKey: PKCS #1, then PKCS #8, then SEC 1. */
function parsePrivateKey(der: Buffer): KeyObject {
  for (const type of ['pkcs1', 'pkcs8', 'sec1'] as const) {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch {
      // Try the next encoding.
    }
  }
  throw new Error('tls: failed to parse private key');
}

/** The error tls.X509KeyPair would return for these PEM inputs, or undefined when they pair up. */
export function x509KeyPairError(certPem: string, keyPem: string): string | undefined {
  try {
    const certDer = certificateDer(certPem);
    const privDer = keyDer(keyPem);
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(certDer);
    } catch {
      throw new Error('x509: malformed certificate');
    }
    const key = parsePrivateKey(privDer);
    if (!cert.checkPrivateKey(key)) throw new Error('tls: private key does not match public key');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
