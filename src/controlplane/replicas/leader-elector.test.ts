// The controllers' leader election over a real etcd: one of two candidates leads, holding the Lease
// writes nothing (renewals are etcd lease keep-alives), a released Lease passes to the other with
// leaseTransitions + 1; on a local store the elector leads at once and writes nothing.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { systemClock } from '../../machinery/time/clock.js';
import { Logger } from '../../server/logging/logger.js';
import { Etcd3Backend } from '../../storage/backends/etcd3/etcd-backend.js';
import { describeWithEtcd } from '../../storage/backends/etcd3/testing/describe-with-etcd.js';
import { SqliteBackend } from '../../storage/backends/sqlite/sqlite-backend.js';
import type { Backend } from '../../storage/kv/backend.js';
import { LeaderElector, leaseKey } from './leader-elector.js';

const timings = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 200 };
const logger = new Logger({ sink: { write: () => true } });

function candidate(backend: Backend, identity: string): { elector: LeaderElector; events: string[] } {
  const events: string[] = [];
  const elector = new LeaderElector({
    backend,
    prefix: '/elect',
    timings,
    clock: systemClock,
    logger,
    identity,
    callbacks: {
      onStartedLeading: () => events.push('started'),
      onStoppedLeading: () => events.push('stopped'),
    },
  });
  return { elector, events };
}

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 8000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeWithEtcd('leader election of the once-per-cluster controllers', (fx) => {
  it('elects one, writes nothing while it holds, and passes the Lease on when released', async () => {
    const backend = await Etcd3Backend.open({ endpoints: [...fx.etcd().endpoints] });
    after(() => backend.close());
    const a = candidate(backend, 'a');
    const b = candidate(backend, 'b');
    a.elector.run();
    await until('a leads', () => a.elector.isLeader);
    b.elector.run();
    const key = leaseKey('/elect', 'kube-system', 'capstan-controller-manager');
    const held = JSON.parse((await backend.get(key)).kv?.value.toString() ?? '{}') as {
      spec: { holderIdentity: string; leaseTransitions: number; leaseDurationSeconds: number };
    };
    assert.equal(held.spec.holderIdentity, 'a');
    assert.equal(held.spec.leaseDurationSeconds, 3);
    const revision = await backend.currentRevision();
    await new Promise((r) => setTimeout(r, 1500)); // several retry periods of renewals and polls
    assert.equal(await backend.currentRevision(), revision, 'holding the Lease writes nothing');
    assert.equal(b.elector.isLeader, false);
    assert.equal(await b.elector.holder(), 'a', "a candidate names the Lease's holder");
    await a.elector.close();
    assert.deepEqual(a.events, ['started', 'stopped']);
    await until('b leads', () => b.elector.isLeader);
    const next = JSON.parse((await backend.get(key)).kv?.value.toString() ?? '{}') as typeof held;
    assert.equal(next.spec.holderIdentity, 'b');
    assert.equal(next.spec.leaseTransitions, 1);
    assert.equal(await a.elector.holder(), 'b');
    await b.elector.close();
    assert.equal(await a.elector.holder(), undefined, 'a released Lease has no holder');
  });
});

it('leads at once on a local store and writes nothing', async () => {
  const backend = await SqliteBackend.open({ path: ':memory:' });
  try {
    const revision = await backend.currentRevision();
    const c = candidate(backend, 'only');
    c.elector.run();
    assert.equal(c.elector.isLeader, true);
    assert.equal(await c.elector.holder(), 'only');
    assert.deepEqual(c.events, ['started']);
    await c.elector.close();
    assert.equal(await c.elector.holder(), undefined);
    assert.deepEqual(c.events, ['started', 'stopped']);
    assert.equal(await backend.currentRevision(), revision);
  } finally {
    await backend.close();
  }
});
