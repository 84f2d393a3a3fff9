import assert from 'node:assert/strict';
import { X509Certificate, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { createCertificate } from './certificate.js';
import { issueCertificate, type LeafTemplate } from './issue-certificate.js';
import { keyPem } from './pem-files.js';
import { loadSigningCA, type SigningCA } from './signing-ca.js';

const now = Date.parse('2026-03-01T00:00:00Z');
const day = 86_400_000;

function newCA(keys: { publicKey: KeyObject; privateKey: KeyObject }): SigningCA {
  const name = { commonName: 'test-ca', organization: 'Capstan' };
  const cert = createCertificate(
    {
      subject: name,
      publicKey: keys.publicKey,
      notBefore: new Date(now - day),
      notAfter: new Date(now + 30 * day),
      isCA: true,
    },
    { name, ...keys },
  );
  const ca = loadSigningCA({ cert, key: keyPem(keys.privateKey) }, { certFile: 'ca.crt', keyFile: 'ca.key' });
  if ('error' in ca) assert.fail(ca.error);
  return ca;
}

const leaf = (publicKey: KeyObject, over: Partial<LeafTemplate> = {}): LeafTemplate => ({
  subject: { commonName: 'jane', organization: ['devs', 'admins'], organizationalUnit: ['ops'] },
  publicKey,
  notBefore: new Date(now - 300_000),
  notAfter: new Date(now + day),
  keyUsageBits: [0, 2],
  extKeyUsages: ['1.3.6.1.5.5.7.3.2'],
  dnsNames: [],
  emailAddresses: [],
  ipAddresses: [],
  uris: [],
  ...over,
});

function issued(t: LeafTemplate, ca: SigningCA): X509Certificate {
  const signed = issueCertificate(t, ca);
  if ('error' in signed) assert.fail(signed.error);
  return new X509Certificate(signed.pem);
}

describe('issueCertificate', () => {
  const ecCA = newCA(generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  const rsaCA = newCA(generateKeyPairSync('rsa', { modulusLength: 2048 }));

  for (const [caName, ca] of [
    ['ECDSA', ecCA],
    ['RSA', rsaCA],
  ] as const)
    for (const keyType of ['ec', 'rsa'] as const)
      it(`signs a ${keyType} key with an ${caName} CA, issuer and subject as Go writes them`, () => {
        const key =
          keyType === 'ec'
            ? generateKeyPairSync('ec', { namedCurve: 'P-384' })
            : generateKeyPairSync('rsa', { modulusLength: 2048 });
        const cert = issued(leaf(key.publicKey), ca);
        assert.ok(cert.verify(ca.certificate.publicKey));
        assert.ok(cert.checkIssued(ca.certificate));
        assert.equal(cert.issuer, ca.certificate.subject);
        // pkix.Name's order (O before OU before CN); the two O values in one RDN, in DER order.
        assert.equal(cert.subject, 'O=devs + O=admins\nOU=ops\nCN=jane');
        assert.equal(cert.publicKey.asymmetricKeyType, keyType);
        assert.equal(cert.ca, false);
        assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
        assert.equal(cert.validFrom, 'Feb 28 23:55:00 2026 GMT');
        assert.equal(cert.validTo, 'Mar  2 00:00:00 2026 GMT');
      });

  it('writes the subjectAltNames, critical when the subject is empty', () => {
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    const sans = {
      dnsNames: ['node-1.example.com'],
      emailAddresses: ['jane@example.com'],
      ipAddresses: [
        Buffer.from([10, 0, 0, 1]),
        Buffer.concat([Buffer.alloc(10), Buffer.from([255, 255, 192, 168, 0, 1])]),
      ],
      uris: ['spiffe://cluster/ns/default'],
    };
    const cert = issued(leaf(key, { ...sans, subject: {} }), ecCA);
    assert.equal(
      cert.subjectAltName,
      'DNS:node-1.example.com, email:jane@example.com, IP Address:10.0.0.1, IP Address:192.168.0.1, URI:spiffe://cluster/ns/default',
    );
    // SAN critical (an empty subject): the extension's DER has the BOOLEAN TRUE after the OID.
    const sanOid = Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x11, 0x01, 0x01, 0xff]);
    assert.ok(cert.raw.includes(sanOid));
    const named = issued(leaf(key, sans), ecCA);
    assert.ok(!named.raw.includes(sanOid));
  });

  it('refuses a CA file with two certificates and a key of another CA', () => {
    const pem = ecCA.certificate.toString();
    const key = keyPem(rsaCA.privateKey);
    const two = loadSigningCA({ cert: pem + pem, key }, { certFile: 'ca.crt', keyFile: 'ca.key' });
    assert.deepEqual(two, { error: 'error reading CA cert file "ca.crt": expected 1 certificate, found 2' });
    const other = loadSigningCA({ cert: pem, key }, { certFile: 'ca.crt', keyFile: 'ca.key' });
    assert.deepEqual(other, { error: 'tls: private key does not match public key' });
  });
});
