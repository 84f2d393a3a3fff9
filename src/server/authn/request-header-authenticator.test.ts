import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { newTestCA, type TestClientCertificate } from '../tls/testing/test-ca.js';
import { ServingListener } from '../http/serving-listener.js';
import { RequestHeaderAuthenticator } from './request-header-authenticator.js';
import { X509Authenticator } from './x509-authenticator.js';

describe('RequestHeaderAuthenticator beside client certificates', () => {
  const clients = newTestCA('client-ca');
  const proxies = newTestCA('front-proxy-ca');
  const servingCA = newTestCA('serving-ca');
  const serving = servingCA.issueServer(['127.0.0.1']);
  const requestHeader = new RequestHeaderAuthenticator({
    caPem: proxies.caPem,
    allowedNames: ['front-proxy-client'],
    usernameHeaders: ['X-Remote-User'],
    groupHeaders: ['X-Remote-Group'],
    extraHeaderPrefixes: ['X-Remote-Extra-'],
  });
  const x509 = new X509Authenticator(clients.caPem);
  let listener: ServingListener;

  before(async () => {
    listener = await ServingListener.listen(
      {
        bindAddress: '127.0.0.1',
        port: 0,
        tls: { ...serving, clientCAPem: `${clients.caPem}\n${proxies.caPem}` },
      },
      (req, res) => {
        const result = { requestHeader: requestHeader.authenticate(req), x509: x509.authenticate(req) };
        const remote = req.rawHeaders.filter(
          (h, i) => i % 2 === 0 && h.toLowerCase().startsWith('x-remote-'),
        );
        res.end(JSON.stringify({ ...result, remoteHeadersLeft: remote }));
      },
    );
  });
  after(() => listener.close());

  const call = (cert: TestClientCertificate, headers: string[] = []): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const r = request(
        `${listener.url}/`,
        { ca: servingCA.caPem, agent: false, cert: cert.certPem, key: cert.keyPem },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => {
            resolve(JSON.parse(body) as Record<string, unknown>);
          });
        },
      );
      for (let i = 0; i + 1 < headers.length; i += 2) {
        const name = headers[i] ?? '';
        const existing = r.getHeader(name);
        const value = headers[i + 1] ?? '';
        r.setHeader(name, existing === undefined ? value : [...[existing].flat().map(String), value]);
      }
      r.on('error', reject).end();
    });

  it('takes the user, every group value and extras from the headers the proxy sends', async () => {
    const proxy = proxies.issueClient('front-proxy-client');
    const result = await call(proxy, [
      'X-Remote-User',
      'alice',
      'X-Remote-Group',
      'a',
      'X-Remote-Group',
      'b',
      'X-Remote-Extra-Acme.com%2Fscopes',
      'view',
    ]);
    assert.deepEqual(result.requestHeader, {
      kind: 'user',
      user: { name: 'alice', groups: ['a', 'b'], extra: { 'acme.com/scopes': ['view'] } },
    });
    // The proxy's certificate is no client certificate of --client-ca-file.
    assert.equal((result.x509 as { kind: string }).kind, 'invalid');
    // ClearAuthenticationHeaders: nothing the proxy asserted is handed on.
    assert.deepEqual(result.remoteHeadersLeft, []);
  });

  it('keeps extras named like Object.prototype members as plain keys', async () => {
    const proxy = proxies.issueClient('front-proxy-client');
    const result = await call(proxy, [
      'X-Remote-User',
      'alice',
      'X-Remote-Extra-Constructor',
      'a',
      'X-Remote-Extra-__proto__',
      'b',
      'X-Remote-Extra-__proto__',
      'c',
    ]);
    const { user } = result.requestHeader as { user: { extra: Record<string, unknown> } };
    assert.deepEqual(Object.entries(user.extra), [
      ['constructor', ['a']],
      ['__proto__', ['b', 'c']],
    ]);
  });

  it('is not asked without a username header', async () => {
    const result = await call(proxies.issueClient('front-proxy-client'));
    assert.deepEqual(result.requestHeader, { kind: 'none' });
  });

  it('refuses a proxy certificate whose CN is not allowed', async () => {
    const result = await call(proxies.issueClient('other-proxy'), ['X-Remote-User', 'alice']);
    assert.deepEqual(result.requestHeader, {
      kind: 'invalid',
      reason: 'x509: subject with cn=other-proxy is not in the allowed list',
    });
    assert.deepEqual(result.remoteHeadersLeft, ['X-Remote-User']);
  });

  it('trusts no headers from a client certificate of the other CA, which still authenticates itself', async () => {
    const result = await call(clients.issueClient('front-proxy-client', ['g']), ['X-Remote-User', 'alice']);
    const rh = result.requestHeader as { kind: string; reason: string };
    assert.equal(rh.kind, 'invalid');
    assert.match(rh.reason, /failed: x509: certificate signed by unknown authority$/);
    assert.deepEqual(result.x509, { kind: 'user', user: { name: 'front-proxy-client', groups: ['g'] } });
  });
});
