import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { connect } from 'node:http2';
import { after, before, describe, it } from 'node:test';
import { newTestCA, type TestClientCertificate } from '../tls/testing/test-ca.js';
import { ServingListener } from '../http/serving-listener.js';
import { X509Authenticator } from './x509-authenticator.js';

function servingPair(): { certPem: string; keyPem: string; caPem: string } {
  const ca = newTestCA('serving-ca');
  return { ...ca.issueServer(['127.0.0.1']), caPem: ca.caPem };
}

describe('X509Authenticator over the serving listener', () => {
  const clients = newTestCA('client-ca');
  const stranger = newTestCA('client-ca');
  const serving = servingPair();
  const observed: number[] = [];
  const now = Date.parse('2026-01-01T00:00:00Z');
  const authenticator = new X509Authenticator(clients.caPem, {
    observe: (seconds) => observed.push(seconds),
    now: () => now,
  });
  let listener: ServingListener;

  before(async () => {
    listener = await ServingListener.listen(
      {
        bindAddress: '127.0.0.1',
        port: 0,
        tls: { certPem: serving.certPem, keyPem: serving.keyPem, clientCAPem: clients.caPem },
      },
      (req, res) => {
        res.end(JSON.stringify(authenticator.authenticate(req)));
      },
    );
  });
  after(() => listener.close());

  const http1 = (cert?: TestClientCertificate): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const opts = {
        ca: serving.caPem,
        agent: false as const,
        ...(cert === undefined ? {} : { cert: cert.certPem, key: cert.keyPem }),
      };
      request(`${listener.url}/`, opts, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => {
          resolve(JSON.parse(body));
        });
      })
        .on('error', reject)
        .end();
    });

  it('takes the user from the CN and the groups from the O attributes', async () => {
    const cert = clients.issueClient('jane', ['developers', 'system:nodes']);
    assert.deepEqual(await http1(cert), {
      kind: 'user',
      user: { name: 'jane', groups: ['developers', 'system:nodes'] },
    });
  });

  it('is not asked without a certificate', async () => {
    assert.deepEqual(await http1(), { kind: 'none' });
  });

  it("observes each request's certificate's remaining lifetime, as kube's expiration histogram", async () => {
    const cert = clients.issueClient('joe', []);
    const notAfter = Date.parse(new X509Certificate(cert.certPem).validTo);
    const before = observed.length;
    await http1(cert);
    await http1();
    await http1(stranger.issueClient('eve', []));
    // The stranger's too: kube observes before it verifies.
    assert.equal(observed.length, before + 2);
    assert.equal(observed[before], (notAfter - now) / 1000);
  });

  it('refuses a certificate another CA signed', async () => {
    const result = (await http1(stranger.issueClient('mallory', ['system:masters']))) as {
      kind: string;
      reason: string;
    };
    assert.equal(result.kind, 'invalid');
    assert.match(result.reason, /^verifying certificate .*CN=mallory.* failed: x509: /);
  });

  it('reads the certificate of an HTTP/2 connection, judged once for its streams', async () => {
    const cert = clients.issueClient('bob', ['ops']);
    const session = connect(listener.url, { ca: serving.caPem, cert: cert.certPem, key: cert.keyPem });
    try {
      const get = (): Promise<unknown> =>
        new Promise((resolve, reject) => {
          const stream = session.request({ ':path': '/' });
          let body = '';
          stream.on('data', (d: Buffer) => (body += d.toString()));
          stream.on('end', () => {
            resolve(JSON.parse(body));
          });
          stream.on('error', reject);
          stream.end();
        });
      const want = { kind: 'user', user: { name: 'bob', groups: ['ops'] } };
      assert.deepEqual(await get(), want);
      assert.deepEqual(await get(), want);
    } finally {
      session.close();
    }
  });
});
