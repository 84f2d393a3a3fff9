// The tokens controller and legacy tokens, in one in-process server: a Secret of type
// kubernetes.io/service-account-token naming an account gets a token, the CA and its namespace; the
// token authenticates as the account while the Secret holds it; a token Secret of an account that
// does not exist is deleted, and so are an account's token Secrets when it goes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { sendRaw, type ClientTarget } from '../../src/server/test-api/http-client.js';
import { waitFor } from './support/wait-for.js';

/** What the test reads of the answers. */
interface Obj {
  metadata?: { uid?: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
  status?: { userInfo?: { username?: string; groups?: string[] } };
}

let server: CapstanServer;
let admin: ClientTarget;
const ns = '/api/v1/namespaces/default';

async function call(method: string, path: string, body?: unknown, as: ClientTarget = admin) {
  const r = await sendRaw(as, {
    method,
    path,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
  });
  return { code: r.code, body: JSON.parse(r.body.toString() || '{}') as Obj };
}

const tokenSecret = (name: string, account: string) => ({
  metadata: { name, annotations: { 'kubernetes.io/service-account.name': account } },
  type: 'kubernetes.io/service-account-token',
});

before(async () => {
  server = await startCapstan();
  const cluster = server.kubeConfig.clusters[0]?.cluster;
  admin = {
    server: server.url,
    insecure: false,
    token: server.kubeConfig.users[0]?.user.token ?? '',
    ca: Buffer.from(cluster?.['certificate-authority-data'] ?? '', 'base64'),
  };
});
after(() => server.stop());

describe('service account token Secrets', () => {
  it('fills a token Secret; its token authenticates as the account until the Secret goes', async () => {
    const sa = await call('POST', `${ns}/serviceaccounts`, { metadata: { name: 'robot' } });
    assert.equal(sa.code, 201);
    assert.equal((await call('POST', `${ns}/secrets`, tokenSecret('robot-token', 'robot'))).code, 201);
    const secret = (
      await waitFor(
        'the token to be written',
        () => call('GET', `${ns}/secrets/robot-token`),
        (r) => r.body.data?.['token'] !== undefined,
      )
    ).body;
    const text = (key: string): string => Buffer.from(secret.data?.[key] ?? '', 'base64').toString();
    assert.equal(secret.metadata?.annotations?.['kubernetes.io/service-account.uid'], sa.body.metadata?.uid);
    assert.equal(text('namespace'), 'default');
    assert.match(text('ca.crt'), /^-----BEGIN CERTIFICATE-----/);
    const token = text('token');
    const payload = Buffer.from(token.split('.')[1] ?? '', 'base64url').toString();
    const claims = JSON.parse(payload) as Record<string, unknown>;
    assert.equal(claims['iss'], 'kubernetes/serviceaccount');
    assert.equal(claims['sub'], 'system:serviceaccount:default:robot');

    const robot = { ...admin, token };
    const review = await call(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      robot,
    );
    assert.equal(review.code, 201);
    const who = review.body.status?.userInfo;
    assert.equal(who?.username, 'system:serviceaccount:default:robot');
    assert.deepEqual(who.groups, [
      'system:serviceaccounts',
      'system:serviceaccounts:default',
      'system:authenticated',
    ]);

    assert.equal((await call('DELETE', `${ns}/secrets/robot-token`)).code, 200);
    assert.equal((await call('GET', `${ns}/configmaps`, undefined, robot)).code, 401);
  });

  it("deletes a token Secret of an account that does not exist, and an account's Secrets when it goes", async () => {
    assert.equal((await call('POST', `${ns}/secrets`, tokenSecret('orphan-token', 'nobody'))).code, 201);
    await waitFor(
      'the orphan token Secret to be deleted',
      () => call('GET', `${ns}/secrets/orphan-token`),
      (r) => r.code === 404,
    );
    assert.equal((await call('POST', `${ns}/serviceaccounts`, { metadata: { name: 'temp' } })).code, 201);
    assert.equal((await call('POST', `${ns}/secrets`, tokenSecret('temp-token', 'temp'))).code, 201);
    await waitFor(
      'the token to be written',
      () => call('GET', `${ns}/secrets/temp-token`),
      (r) => r.body.data?.['token'] !== undefined,
    );
    assert.equal((await call('DELETE', `${ns}/serviceaccounts/temp`)).code, 200);
    await waitFor(
      "the account's token Secret to be deleted",
      () => call('GET', `${ns}/secrets/temp-token`),
      (r) => r.code === 404,
    );
  });
});
