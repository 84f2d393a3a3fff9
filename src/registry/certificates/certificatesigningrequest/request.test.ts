// certificateRequestOrganizations: the subject's O= values of a request, in order, and why a
// request that does not parse does not.
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { describe, it } from 'node:test';
import { certificateRequestOrganizations } from './request.js';
import { newTestCSR } from './testing/csr-pem.js';

// openssl req -new -subj "/O=devs/O=system:masters/O=Zürich/CN=bob" -utf8 (P-256 key)
const threeOrganizations = `-----BEGIN CERTIFICATE REQUEST-----
MIIBBDCBqgIBADBIMQ0wCwYDVQQKDARkZXZzMRcwFQYDVQQKDA5zeXN0ZW06bWFz
dGVyczEQMA4GA1UECgwHWsO8cmljaDEMMAoGA1UEAwwDYm9iMFkwEwYHKoZIzj0C
AQYIKoZIzj0DAQcDQgAE34JmQjQvqg2h4/csKmkGtmVWF0eYzVezdyAZgzGd4bQ1
4ZR+utIfcb5ZYXu5+6XPxW60fqLewl7GWgFZawey6qAAMAoGCCqGSM49BAMCA0kA
MEYCIQCPc12LZJkZWzJzCG3orLV9LI/FFDQ80koo8DDofYVZUgIhAP6WWKsYPWq1
dXoL/5nDYglB3GrPfsIalo8C0YtbofGp
-----END CERTIFICATE REQUEST-----
`;

describe('certificateRequestOrganizations', () => {
  it('lists every organization of the subject in order', () => {
    const request = Buffer.from(threeOrganizations).toString('base64');
    assert.deepEqual(certificateRequestOrganizations(request), ['devs', 'system:masters', 'Zürich']);
    assert.deepEqual(certificateRequestOrganizations(newTestCSR('alice', 'team').request), ['team']);
    assert.deepEqual(certificateRequestOrganizations(newTestCSR('alice').request), []);
  });

  it('says why a request does not parse', () => {
    const notPem = Buffer.from('hello').toString('base64');
    assert.deepEqual(certificateRequestOrganizations(notPem), {
      error: 'PEM block type must be CERTIFICATE REQUEST',
    });
    const garbage = Buffer.from(
      '-----BEGIN CERTIFICATE REQUEST-----\nMAMCAQA=\n-----END CERTIFICATE REQUEST-----\n',
    ).toString('base64');
    assert.deepEqual(certificateRequestOrganizations(garbage), {
      error: 'x509: malformed certificate request',
    });
  });
});
