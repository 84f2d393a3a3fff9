import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node } from '../../../api/core/v1/node.js';
import type { Lease } from '../../../api/coordination/v1/lease.js';
import { rfc3339 } from '../simulation/clock.js';
import { observeNodeHealth, type NodeHealth } from './node-health.js';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => t0 + s * 1000;

function node(ready: { status: string; beat: number } | undefined): Node {
  const beat = ready === undefined ? '' : rfc3339(at(ready.beat));
  return {
    metadata: { name: 'n', creationTimestamp: rfc3339(t0) },
    status: {
      conditions:
        ready === undefined
          ? []
          : [
              { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: beat, lastTransitionTime: beat },
              { type: 'Ready', status: ready.status, lastHeartbeatTime: beat, lastTransitionTime: beat },
            ],
    },
  };
}
const lease = (renew: number): Lease => ({
  metadata: { name: 'n' },
  spec: { renewTime: new Date(at(renew)).toISOString() },
});

describe('observeNodeHealth', () => {
  it('a node first seen is healthy from now on', () => {
    const obs = observeNodeHealth({
      node: node({ status: 'True', beat: 0 }),
      saved: undefined,
      lease: undefined,
      now: at(1),
      rfc3339,
    });
    assert.equal(obs.update, undefined);
    assert.equal(obs.health.probeTimestamp, at(1));
    assert.equal(obs.gracePeriodMs, 50_000);
  });

  it('lease renewals keep a node whose status heartbeat is old alive; silence past 50 s makes it Unknown', () => {
    const n = node({ status: 'True', beat: 0 });
    let saved: NodeHealth | undefined;
    for (const s of [0, 10, 20, 30]) {
      const obs = observeNodeHealth({ node: n, saved, lease: lease(s), now: at(s + 1), rfc3339 });
      assert.equal(obs.update, undefined);
      saved = obs.health;
    }
    // The last renewal was seen at 31 s: still healthy at 81 s, not at 81.001 s.
    const edge = observeNodeHealth({ node: n, saved, lease: lease(30), now: at(81), rfc3339 });
    assert.equal(edge.update, undefined);
    const late = observeNodeHealth({ node: n, saved: edge.health, lease: lease(30), now: at(82), rfc3339 });
    assert.equal(late.observedReady.status, 'True');
    assert.equal(late.currentReady?.status, 'Unknown');
    const conditions = late.update?.status?.conditions ?? [];
    for (const type of ['Ready', 'MemoryPressure'])
      assert.deepEqual(
        conditions.find((c) => c.type === type),
        {
          type,
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastHeartbeatTime: rfc3339(t0),
          lastTransitionTime: rfc3339(at(82)),
        },
      );
    // Kubelets that never posted DiskPressure and PIDPressure get them Unknown too.
    assert.equal(conditions.find((c) => c.type === 'PIDPressure')?.reason, 'NodeStatusNeverUpdated');
    assert.equal(n.status?.conditions?.[1]?.status, 'True', 'the informer copy is not changed');
    // Once written, the next pass writes nothing more.
    const again = observeNodeHealth({
      node: late.update as Node,
      saved: late.written,
      lease: lease(30),
      now: at(87),
      rfc3339,
    });
    assert.equal(again.update, undefined);
    assert.equal(again.observedReady.status, 'Unknown');
  });

  it('a new heartbeat makes a silent node healthy again', () => {
    const first = observeNodeHealth({
      node: node({ status: 'True', beat: 0 }),
      saved: undefined,
      lease: undefined,
      now: at(0),
      rfc3339,
    });
    const beat = observeNodeHealth({
      node: node({ status: 'True', beat: 45 }),
      saved: first.health,
      lease: undefined,
      now: at(45),
      rfc3339,
    });
    assert.equal(beat.health.probeTimestamp, at(45));
    const later = observeNodeHealth({
      node: node({ status: 'True', beat: 45 }),
      saved: beat.health,
      lease: undefined,
      now: at(90),
      rfc3339,
    });
    assert.equal(later.update, undefined);
  });

  it('a node that never posted a status gets the 60 s startup grace period', () => {
    const n = node(undefined);
    const early = observeNodeHealth({ node: n, saved: undefined, lease: undefined, now: at(59), rfc3339 });
    assert.equal(early.gracePeriodMs, 60_000);
    assert.equal(early.update, undefined);
    const late = observeNodeHealth({ node: n, saved: early.health, lease: undefined, now: at(61), rfc3339 });
    const ready = late.update?.status?.conditions?.find((c) => c.type === 'Ready');
    assert.deepEqual(
      { status: ready?.status, reason: ready?.reason, message: ready?.message },
      { status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' },
    );
  });
});
