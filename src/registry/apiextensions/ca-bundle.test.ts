// kube's webhook.ValidateCABundle (client-go's TLSConfigFor with the bundle as CAData): which
// caBundles load as root certificates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caBundleError, caBundleLoads } from './ca-bundle.js';
import { testCAPEM } from './testing/test-ca.js';

const b64 = (text: string): string => Buffer.from(text, 'latin1').toString('base64');
const certBody = testCAPEM.split('\n').slice(1, -2).join('\n');

const cases: readonly { name: string; caBundle: string; loads: boolean; error?: string }[] = [
  { name: 'none: the system roots', caBundle: '', loads: true },
  { name: 'a PEM certificate', caBundle: b64(testCAPEM), loads: true },
  {
    name: 'a certificate after text and another block',
    caBundle: b64(`junk\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n${testCAPEM}`),
    loads: true,
  },
  {
    name: 'bytes that are no PEM',
    caBundle: b64('not a certificate'),
    loads: false,
    error: 'unable to parse bytes as PEM block',
  },
  {
    name: 'a PEM block of another type',
    caBundle: b64(testCAPEM.replaceAll('CERTIFICATE', 'PUBLIC KEY')),
    loads: false,
    error: 'no valid certificate authority data seen',
  },
  {
    name: 'a PEM block of another type and a line after it',
    caBundle: b64(`${testCAPEM.replaceAll('CERTIFICATE', 'PUBLIC KEY')}\n`),
    loads: false,
    error: 'unable to parse bytes as PEM block',
  },
  {
    name: 'a certificate block whose body does not parse',
    caBundle: b64('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'),
    loads: false,
    error: 'failed to parse certificate: x509: malformed certificate',
  },
  {
    name: 'a certificate block with headers',
    caBundle: b64(
      `-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n${certBody}\n-----END CERTIFICATE-----\n`,
    ),
    loads: false,
  },
];

describe("caBundleLoads, and client-go's reason when it does not", () => {
  for (const c of cases)
    it(c.name, () => {
      assert.equal(caBundleLoads(c.caBundle), c.loads);
      if (c.error !== undefined) assert.equal(caBundleError(c.caBundle), c.error);
    });
});
