// The default ServiceCIDR `kubernetes` on a server with a virtual clock: the service-cidr-controller
// protects it with its finalizer, a deletion waits (Terminating) while the `kubernetes` Service's IP
// lies in it, and once it is gone the 10 s resync of its bootstrap controller makes it again.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { startCapstan, type CapstanServer } from '../../src/index.js';

interface ServiceCIDRJson {
  metadata: { finalizers?: string[]; deletionTimestamp?: string; uid?: string };
  status?: { conditions?: { type: string; status: string; reason: string }[] };
}

const path = '/apis/networking.k8s.io/v1/servicecidrs/kubernetes';

describe('the default ServiceCIDR', () => {
  let server: CapstanServer;
  const call = async (method: string, body?: unknown, contentType = 'application/json') => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.kubeConfig.users[0]?.user.token ?? ''}`,
        'content-type': contentType,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as ServiceCIDRJson };
  };
  /** Polls until `done` holds (the controllers work in the background), for at most 5 s. */
  const until = async (what: string, done: (r: Awaited<ReturnType<typeof call>>) => boolean) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const r = await call('GET');
      if (done(r)) return r;
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(r)}`);
      await delay(20);
    }
  };

  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http', clock: 'virtual' });
  });
  after(() => server.stop());

  it('is protected while its IPs are in use, and made again once deleted', async () => {
    const ready = (r: Awaited<ReturnType<typeof call>>) =>
      r.body.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    const first = await until(
      'the finalizer and Ready',
      (r) =>
        ready(r) && (r.body.metadata.finalizers ?? []).includes('networking.k8s.io/service-cidr-finalizer'),
    );
    assert.equal((await call('DELETE')).status, 200);
    const terminating = await until('Terminating', (r) =>
      (r.body.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.reason === 'Terminating'),
    );
    assert.notEqual(terminating.body.metadata.deletionTimestamp, undefined);
    // Let it go by hand, as an operator would.
    const freed = await call('PATCH', { metadata: { finalizers: null } }, 'application/merge-patch+json');
    assert.equal(freed.status, 200);
    assert.equal((await call('GET')).status, 404);
    await server.clock.advance('10s');
    const again = await until('the resync to make it again', (r) => r.status === 200);
    assert.notEqual(again.body.metadata.uid, first.body.metadata.uid);
  });
});
