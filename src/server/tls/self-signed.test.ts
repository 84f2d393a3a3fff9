import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDirs } from '../testing/temp-dirs.js';
import { defaultAltNames, ensureServingCertificates } from './self-signed.js';

describe('self-signed serving certificates', () => {
  const pkiDir = tempDirs('capstan-pki-');

  it('makes a CA and a serving certificate that verify, with the SANs asked for', async () => {
    const dir = await pkiDir();
    const certs = await ensureServingCertificates(dir, defaultAltNames('10.1.2.3'));
    assert.deepEqual(certs.generated, ['ca', 'serving']);
    const ca = new X509Certificate(certs.caPem);
    const cert = new X509Certificate(certs.certPem);
    assert.equal(ca.ca, true);
    assert.equal(cert.ca, false);
    assert.ok(cert.checkIssued(ca));
    assert.ok(cert.verify(ca.publicKey));
    for (const host of ['localhost', 'kubernetes.default.svc']) assert.equal(cert.checkHost(host), host);
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3', '10.0.0.1']) assert.ok(cert.checkIP(ip), ip);
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    assert.equal((await stat(join(dir, 'apiserver.key'))).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'ca.key'))).mode & 0o777, 0o600);
  });

  it('reuses the files on the next start', async () => {
    const dir = await pkiDir();
    const first = await ensureServingCertificates(dir, defaultAltNames('0.0.0.0'));
    const second = await ensureServingCertificates(dir, defaultAltNames('0.0.0.0'));
    assert.deepEqual(second.generated, []);
    assert.equal(second.caPem, first.caPem);
    assert.equal(second.certPem, first.certPem);
    assert.equal(second.keyPem, await readFile(join(dir, 'apiserver.key'), 'utf8'));
  });

  it('remakes only the serving certificate when a new name must be covered', async () => {
    const dir = await pkiDir();
    const first = await ensureServingCertificates(dir, defaultAltNames('0.0.0.0'));
    const moved = await ensureServingCertificates(dir, defaultAltNames('192.168.7.7'));
    assert.deepEqual(moved.generated, ['serving']);
    assert.equal(moved.caPem, first.caPem);
    assert.ok(new X509Certificate(moved.certPem).checkIP('192.168.7.7'));
  });

  it('tells IPv6 addresses from host names: a new IPv6 name remakes the certificate once', async () => {
    const dir = await pkiDir();
    await ensureServingCertificates(dir, defaultAltNames('0.0.0.0'));
    const moved = await ensureServingCertificates(dir, defaultAltNames('fd00::7'));
    assert.deepEqual(moved.generated, ['serving']);
    assert.ok(new X509Certificate(moved.certPem).checkIP('fd00::7'));
    const again = await ensureServingCertificates(dir, defaultAltNames('fd00::7'));
    assert.deepEqual(again.generated, []);
  });

  it('checks files again once they change, though the same files were found reusable before', async () => {
    const dir = await pkiDir();
    const first = await ensureServingCertificates(dir, defaultAltNames('0.0.0.0'));
    assert.deepEqual((await ensureServingCertificates(dir, defaultAltNames('0.0.0.0'))).generated, []);
    // A serving key that does not match the certificate: the certificate is remade.
    const other = await pkiDir();
    await ensureServingCertificates(other, defaultAltNames('0.0.0.0'));
    await copyFile(join(other, 'apiserver.key'), join(dir, 'apiserver.key'));
    const rekeyed = await ensureServingCertificates(dir, defaultAltNames('0.0.0.0'));
    assert.deepEqual(rekeyed.generated, ['serving']);
    assert.notEqual(rekeyed.certPem, first.certPem);
    // A CA that is not a certificate: both are remade.
    await writeFile(join(dir, 'ca.crt'), 'not a certificate');
    assert.deepEqual((await ensureServingCertificates(dir, defaultAltNames('0.0.0.0'))).generated, [
      'ca',
      'serving',
    ]);
  });
});
