// The serving certificate Capstan makes for itself: a CA and a serving certificate signed by it,
// kept under <data-dir>/pki so later starts reuse them (and kubeconfigs keep trusting the CA). The
// serving certificate is made again when it expires within 30 days, does not cover the names asked
// for, or was not issued by the CA on disk.
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createCertificate, type Issuer } from './certificate.js';
import { keyPem, newKeyPair, readIfPresent, writeAtomic } from './pem-files.js';

const day = 86_400_000;
const renewBefore = 30 * day;

export interface ServingCertificates {
  readonly caPem: string;
  readonly certPem: string;
  readonly keyPem: string;
  /** Files written this time: nothing means every file was reused. */
  readonly generated: readonly ('ca' | 'serving')[];
}

/** localhost, loopback, the host name, the bind address and the names of the kubernetes Service. */
export function defaultAltNames(bindAddress: string, extra: readonly string[] = []): string[] {
  const names = [
    'localhost',
    '127.0.0.1',
    '::1',
    hostname(),
    'kubernetes',
    'kubernetes.default',
    'kubernetes.default.svc',
  ];
  names.push('kubernetes.default.svc.cluster.local', '10.0.0.1');
  if (bindAddress !== '' && bindAddress !== '0.0.0.0' && bindAddress !== '::') names.push(bindAddress);
  return [...new Set([...names, ...extra])];
}

function usable(
  certPem: string | undefined,
  keyText: string | undefined,
  now: number,
): X509Certificate | undefined {
  if (certPem === undefined || keyText === undefined) return undefined;
  try {
    const cert = new X509Certificate(certPem);
    if (Date.parse(cert.validTo) - now < renewBefore || !cert.checkPrivateKey(createPrivateKey(keyText)))
      return undefined;
    return cert;
  } catch {
    return undefined;
  }
}

// A DNS name has no colon, so a name with one is an IPv6 address, and four dotted numbers an IPv4
// one. Telling them apart without node:net's isIP spares each start its IPv6 pattern (compiling it
// costs several milliseconds); a malformed address makes checkIP throw: not covered, so remade.
const isAddress = (n: string): boolean => n.includes(':') || /^\d{1,3}(\.\d{1,3}){3}$/.test(n);

function coversName(cert: X509Certificate, name: string): boolean {
  try {
    return (isAddress(name) ? cert.checkIP(name) : cert.checkHost(name, { wildcards: false })) !== undefined;
  } catch {
    return false;
  }
}

const covers = (cert: X509Certificate, names: readonly string[]): boolean =>
  names.every((n) => coversName(cert, n));

function makeCa(now: number): { caPem: string; keyPem: string } {
  const keys = newKeyPair();
  const name = { commonName: `capstan-ca@${Math.floor(now / 1000)}` };
  const issuer: Issuer = { name, ...keys };
  const caPem = createCertificate(
    {
      subject: name,
      publicKey: keys.publicKey,
      notBefore: new Date(now - 3_600_000),
      notAfter: new Date(now + 3650 * day),
      isCA: true,
    },
    issuer,
  );
  return { caPem, keyPem: keyPem(keys.privateKey) };
}

function makeServing(
  ca: { caPem: string; keyPem: string },
  altNames: readonly string[],
  now: number,
): { certPem: string; keyPem: string } {
  const caCert = new X509Certificate(ca.caPem);
  const commonName = /CN=([^\n]*)/.exec(caCert.subject)?.[1] ?? 'capstan-ca';
  const issuer: Issuer = {
    name: { commonName },
    publicKey: createPublicKey(ca.caPem),
    privateKey: createPrivateKey(ca.keyPem),
  };
  const keys = newKeyPair();
  const certPem = createCertificate(
    {
      subject: { commonName: 'kube-apiserver' },
      publicKey: keys.publicKey,
      notBefore: new Date(now - 3_600_000),
      notAfter: new Date(now + 365 * day),
      isCA: false,
      altNames,
    },
    issuer,
  );
  return { certPem, keyPem: keyPem(keys.privateKey) };
}

/**
 * Files found reusable, by their text and the names asked for, with the time the first of the two
 * certificates expires: parsing them and checking keys, issuer and names took ~2 ms of every start,
 * and every fork of a server reads the same files. What the files hold decides the answer, so
 * remembering it across the servers of a process shares no state between them. A few entries.
 */
const reusable = new Map<string, number>();
const maxReusable = 8;

function remember(key: string, until: number): void {
  reusable.delete(key);
  if (reusable.size >= maxReusable) reusable.delete(reusable.keys().next().value as string);
  reusable.set(key, until);
}

/** Reuses or makes `<dir>/ca.crt`, `ca.key`, `apiserver.crt`, `apiserver.key`. */
export async function ensureServingCertificates(
  dir: string,
  altNames: readonly string[],
): Promise<ServingCertificates> {
  const now = Date.now();
  const paths = {
    caCrt: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    crt: join(dir, 'apiserver.crt'),
    key: join(dir, 'apiserver.key'),
  };
  const [caPem, caKey, certPem, servingKey] = await Promise.all(
    [paths.caCrt, paths.caKey, paths.crt, paths.key].map(readIfPresent),
  );
  const memoKey =
    caPem === undefined || caKey === undefined || certPem === undefined || servingKey === undefined
      ? undefined
      : [caPem, caKey, certPem, servingKey, ...altNames].join('\0');
  const checkedUntil = memoKey === undefined ? undefined : reusable.get(memoKey);
  if (checkedUntil !== undefined && checkedUntil - now >= renewBefore) {
    return {
      caPem: caPem as string,
      certPem: certPem as string,
      keyPem: servingKey as string,
      generated: [],
    };
  }
  const generated: ('ca' | 'serving')[] = [];
  let ca =
    usable(caPem, caKey, now) !== undefined && caPem !== undefined && caKey !== undefined
      ? { caPem, keyPem: caKey }
      : undefined;
  if (ca === undefined) {
    ca = makeCa(now);
    generated.push('ca');
  }
  const caCert = new X509Certificate(ca.caPem);
  const current = generated.length === 0 ? usable(certPem, servingKey, now) : undefined;
  if (
    current !== undefined &&
    certPem !== undefined &&
    servingKey !== undefined &&
    current.checkIssued(caCert) &&
    covers(current, altNames)
  ) {
    if (memoKey !== undefined)
      remember(memoKey, Math.min(Date.parse(caCert.validTo), Date.parse(current.validTo)));
    return { caPem: ca.caPem, certPem, keyPem: servingKey, generated };
  }
  const serving = makeServing(ca, altNames, now);
  generated.push('serving');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (generated.includes('ca')) {
    await writeAtomic(paths.caKey, ca.keyPem, 0o600);
    await writeAtomic(paths.caCrt, ca.caPem, 0o644);
  }
  await writeAtomic(paths.key, serving.keyPem, 0o600);
  await writeAtomic(paths.crt, serving.certPem, 0o644);
  return { caPem: ca.caPem, certPem: serving.certPem, keyPem: serving.keyPem, generated };
}
