// Leader election over a coordination.k8s.io/v1 Lease with the real @kubernetes/client-node.
// client-node 1.x ships no LeaderElector, so each candidate here runs client-go's LeaseLock loop
// (leaderelection.go tryAcquireOrRenew) through CoordinationV1Api: read the lease, take it when it
// is free or expired, renew it while holding it, and count the hand-overs in leaseTransitions.
// Optimistic concurrency (resourceVersion on replace) is what keeps two candidates from both leading.
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment, @typescript-eslint/no-misused-spread --
   client-node's models are generated data-only classes; its API is meant to take plain object literals. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CoordinationV1Api, CoreV1Api, KubeConfig, V1MicroTime, type V1Lease } from '@kubernetes/client-node';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { eventually, statusOf } from './support/client-node-helpers.js';

const ns = 'leader-election';
const leaseName = 'election';
const leaseDurationSeconds = 2;
// client-go's renewDeadline: a leader that has not renewed for this long stops leading, before the
// lease (leaseDurationSeconds) can expire for the others, so a slow round never makes two leaders.
const renewDeadlineMs = 1500;
const retryPeriodMs = 100;

class Candidate {
  readonly identity: string;
  readonly #api: CoordinationV1Api;
  #timer: NodeJS.Timeout | undefined;
  #leading = false;
  /** The renewTime of this candidate's last successful write (its own clock, as client-go's). */
  #renewedAt = 0;
  #stopped = false;
  readonly errors: unknown[] = [];

  constructor(identity: string, api: CoordinationV1Api) {
    this.identity = identity;
    this.#api = api;
  }

  get leading(): boolean {
    return this.#leading && Date.now() < this.#renewedAt + renewDeadlineMs;
  }

  start(): void {
    const tick = async (): Promise<void> => {
      try {
        const acquired = await this.#tryAcquireOrRenew();
        // A round still in flight when stop() was called must not make a stopped candidate lead.
        this.#leading = acquired && !this.#stopped;
      } catch (err) {
        this.errors.push(err);
        this.#leading = false;
      }
      if (!this.#stopped) this.#timer = setTimeout(() => void tick(), retryPeriodMs);
    };
    void tick();
  }

  /** Stops renewing without releasing, as a crashed process would. */
  stop(): void {
    this.#stopped = true;
    this.#leading = false;
    clearTimeout(this.#timer);
  }

  async #tryAcquireOrRenew(): Promise<boolean> {
    // V1MicroTime serializes with the six fraction digits a MicroTime must have (kube rejects three).
    const now = new V1MicroTime();
    const current = await this.#api
      .readNamespacedLease({ name: leaseName, namespace: ns })
      .catch((err: unknown) => {
        if (statusOf(err).code === 404) return undefined;
        throw err;
      });
    if (current === undefined) {
      const spec = {
        holderIdentity: this.identity,
        leaseDurationSeconds,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: 0,
      };
      return this.#write(
        () =>
          this.#api.createNamespacedLease({ namespace: ns, body: { metadata: { name: leaseName }, spec } }),
        now,
      );
    }
    const spec = current.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const renewedAt = spec.renewTime === undefined ? 0 : new Date(spec.renewTime).getTime();
    const expired = renewedAt + (spec.leaseDurationSeconds ?? 0) * 1000 < now.getTime();
    if (holder !== '' && holder !== this.identity && !expired) return false;
    const takingOver = holder !== this.identity;
    const body: V1Lease = {
      metadata: current.metadata ?? {},
      spec: {
        ...spec,
        holderIdentity: this.identity,
        leaseDurationSeconds,
        renewTime: now,
        ...(takingOver ? { acquireTime: now, leaseTransitions: (spec.leaseTransitions ?? 0) + 1 } : {}),
      },
    };
    return this.#write(() => this.#api.replaceNamespacedLease({ name: leaseName, namespace: ns, body }), now);
  }

  /** A 409 means another candidate wrote first: not leading this round. */
  async #write(call: () => Promise<V1Lease>, renewTime: Date): Promise<boolean> {
    try {
      await call();
      this.#renewedAt = renewTime.getTime();
      return true;
    } catch (err) {
      if (statusOf(err).code === 409) return false;
      throw err;
    }
  }
}

describe('client-node leader election against capstan', () => {
  let server: CapstanServer;
  let api: CoordinationV1Api;
  const kc = new KubeConfig();

  before(async () => {
    server = await startCapstan();
    kc.loadFromFile(server.kubeconfigPath);
    api = kc.makeApiClient(CoordinationV1Api);
    await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: ns } } });
  });
  after(() => server.stop());

  it('elects one leader, and the other takes over when it stops', async (t) => {
    const a = new Candidate('candidate-a', api);
    const b = new Candidate('candidate-b', kc.makeApiClient(CoordinationV1Api));
    const both = [a, b];
    // Stopped however the test ends: a candidate left renewing would keep this file from exiting.
    t.after(() => {
      a.stop();
      b.stop();
    });
    a.start();
    b.start();
    const leaders = (): string[] => both.filter((c) => c.leading).map((c) => c.identity);
    await eventually(() => leaders().length === 1, 'one leader', { seen: leaders });
    // Several lease periods go by: the leader keeps renewing, and never two lead at once.
    const first = leaders()[0];
    for (let i = 0; i < 15; i++) {
      await new Promise((r) => setTimeout(r, retryPeriodMs));
      assert.ok(leaders().length <= 1, `two leaders: ${leaders().join()}`);
    }
    await eventually(() => leaders().length === 1 && leaders()[0] === first, `${first ?? ''} still leading`, {
      seen: leaders,
    });
    const held = (await api.readNamespacedLease({ name: leaseName, namespace: ns })).spec ?? {};
    assert.equal(held.holderIdentity, first);
    assert.equal(held.leaseTransitions, 0);

    const leader = first === a.identity ? a : b;
    const follower = leader === a ? b : a;
    leader.stop();
    await eventually(() => follower.leading, `${follower.identity} to take over`, {
      seen: leaders,
      timeoutMs: 5000,
    });
    const taken = (await api.readNamespacedLease({ name: leaseName, namespace: ns })).spec ?? {};
    assert.equal(taken.holderIdentity, follower.identity);
    assert.equal(taken.leaseTransitions, 1);
    assert.ok(
      new Date(taken.acquireTime ?? 0).getTime() > new Date(held.renewTime ?? 0).getTime(),
      'the new holder acquired after the old one last renewed',
    );
    follower.stop();
    assert.deepEqual([...a.errors, ...b.errors], []);
  });
});
