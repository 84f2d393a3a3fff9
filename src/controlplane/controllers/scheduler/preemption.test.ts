import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import type { NodeFit } from './filters.js';
import {
  ineligibility,
  neverPreempts,
  noVictims,
  pickOneNode,
  selectVictimsOnNode,
  victimTerminating,
  type Victims,
} from './preemption.js';

const now = Date.parse('2026-12-03T10:00:00Z');

/** A pod with a priority and a cpu request in cores, started `minutesAgo` before now. */
const pod = (
  name: string,
  priority: number,
  cpu = 1,
  minutesAgo = 10,
  labels: Record<string, string> = {},
): Pod => ({
  metadata: { name, namespace: 'default', labels },
  spec: { priority, containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: String(cpu) } } }] },
  status: { startTime: new Date(now - minutesAgo * 60_000).toISOString() },
});

/** A node of `capacity` cores: the filter is the cpu left for the incoming pod. */
const cpuFilter =
  (incoming: Pod, capacity: number) =>
  (remaining: readonly Pod[]): NodeFit => {
    const cpu = (p: Pod): number => Number(p.spec?.containers[0]?.resources?.requests?.['cpu'] ?? 0);
    const used = remaining.reduce((sum, p) => sum + cpu(p), 0);
    return used + cpu(incoming) <= capacity
      ? { reasons: [], unresolvable: false }
      : { reasons: ['Insufficient cpu'], unresolvable: false };
  };

const names = (found: Victims | NodeFit): string[] | NodeFit =>
  'pods' in found ? found.pods.map((p) => p.metadata?.name ?? '') : found;

describe('selectVictimsOnNode', () => {
  it('takes the fewest, least important pods of lower priority, putting back the most important first', () => {
    const incoming = pod('web', 1000, 2);
    const onNode = [pod('a', 0, 1, 30), pod('b', 0, 1, 5), pod('c', 10, 1), pod('keep', 2000, 1)];
    // 4 cores: 'keep' stays; of a, b, c two must go. 'c' (priority 10) and then 'a' (older) go back
    // first: 'c' fits back, 'a' does not once 'c' is there, nor 'b'.
    const found = selectVictimsOnNode({
      pod: incoming,
      podsOnNode: onNode,
      fitsWith: cpuFilter(incoming, 4),
      budgets: [],
      now,
    });
    assert.deepEqual(names(found), ['a', 'b']);
    assert.equal('pdbViolations' in found ? found.pdbViolations : -1, 0);
  });

  it('says there are no victims without pods of lower priority, and what still fails without them', () => {
    const incoming = pod('web', 100, 2);
    assert.deepEqual(
      selectVictimsOnNode({
        pod: incoming,
        podsOnNode: [pod('same', 100)],
        fitsWith: cpuFilter(incoming, 2),
        budgets: [],
        now,
      }),
      {
        reasons: [noVictims],
        unresolvable: true,
      },
    );
    assert.deepEqual(
      selectVictimsOnNode({
        pod: incoming,
        podsOnNode: [pod('low', 0), pod('high', 200, 3)],
        fitsWith: cpuFilter(incoming, 4),
        budgets: [],
        now,
      }),
      {
        reasons: ['Insufficient cpu'],
        unresolvable: false,
      },
    );
  });

  it('puts back first the pods whose budget their eviction would break, and counts those it cannot', () => {
    const incoming = pod('web', 1000, 2);
    const budget: PodDisruptionBudget = {
      metadata: { name: 'db', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'db' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2 },
    };
    const db = pod('db-0', 0, 1, 5, { app: 'db' });
    const cache = pod('cache', 0, 1, 30, { app: 'cache' });
    // Two cores free one at a time: the budget's pod is tried first and stays; the older cache goes.
    const found = selectVictimsOnNode({
      pod: incoming,
      podsOnNode: [cache, db],
      fitsWith: cpuFilter(incoming, 3),
      budgets: [budget],
      now,
    });
    assert.deepEqual(names(found), ['cache']);
    // With three cores to free, both go, and the budget is broken once.
    const both = selectVictimsOnNode({
      pod: incoming,
      podsOnNode: [cache, db],
      fitsWith: cpuFilter(incoming, 2),
      budgets: [budget],
      now,
    });
    assert.deepEqual(names(both), ['cache', 'db-0']);
    assert.equal('pdbViolations' in both ? both.pdbViolations : -1, 1);
  });
});

describe('pickOneNode', () => {
  const victims = (pods: Pod[], pdbViolations = 0): Victims => ({ pods, pdbViolations });

  it("follows kube's criteria in order", () => {
    // Fewer budget violations first.
    assert.equal(
      pickOneNode(
        new Map([
          ['n1', victims([pod('a', 0)], 1)],
          ['n2', victims([pod('b', 5), pod('c', 5)])],
        ]),
        now,
      ),
      'n2',
    );
    // Then the lowest highest priority.
    assert.equal(
      pickOneNode(
        new Map([
          ['n1', victims([pod('a', 5)])],
          ['n2', victims([pod('b', 3), pod('c', 3)])],
        ]),
        now,
      ),
      'n2',
    );
    // Then the smallest sum of priorities.
    assert.equal(
      pickOneNode(
        new Map([
          ['n1', victims([pod('a', 3), pod('b', 3)])],
          ['n2', victims([pod('c', 3), pod('d', 1)])],
        ]),
        now,
      ),
      'n2',
    );
    // Then the fewest victims.
    assert.equal(
      pickOneNode(
        new Map([
          ['n1', victims([pod('a', 0), pod('b', 0)])],
          ['n2', victims([pod('c', 0)])],
        ]),
        now,
      ),
      'n2',
    );
    // Then the latest start among the most important victims.
    assert.equal(
      pickOneNode(
        new Map([
          ['n1', victims([pod('a', 0, 1, 60)])],
          ['n2', victims([pod('b', 0, 1, 5)])],
        ]),
        now,
      ),
      'n2',
    );
    // Then the first.
    assert.equal(
      pickOneNode(
        new Map([
          ['n1', victims([pod('a', 0)])],
          ['n2', victims([pod('b', 0)])],
        ]),
        now,
      ),
      'n1',
    );
    assert.equal(pickOneNode(new Map(), now), undefined);
  });
});

describe('ineligibility', () => {
  it('refuses preemptionPolicy Never, and a pod whose victim on its nominated node still terminates', () => {
    const never = pod('never', 100);
    never.spec = { ...never.spec, containers: never.spec?.containers ?? [], preemptionPolicy: 'Never' };
    assert.equal(ineligibility(never, undefined), neverPreempts);
    const victim = pod('victim', 0);
    victim.metadata = { ...victim.metadata, deletionTimestamp: '2026-12-03T10:00:00Z' };
    victim.status = {
      conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }],
    };
    const high = pod('high', 100);
    assert.equal(ineligibility(high, { unresolvable: false, pods: [victim] }), victimTerminating);
    // Not when the nominated node no longer suits the pod at all, nor for a victim of equal priority.
    assert.equal(ineligibility(high, { unresolvable: true, pods: [victim] }), undefined);
    assert.equal(ineligibility(pod('peer', 0), { unresolvable: false, pods: [victim] }), undefined);
  });
});
