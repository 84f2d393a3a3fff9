import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { selectorFromSet } from '../../../machinery/labels/selector-from-set.js';
import { podTopologySpreadScores } from './pod-topology-spread-score.js';

const node = (name: string, zone?: string): Node => ({
  metadata: {
    name,
    labels: {
      'kubernetes.io/hostname': name,
      ...(zone === undefined ? {} : { 'topology.kubernetes.io/zone': zone }),
    },
  },
});
const web = (name: string): Pod => ({ metadata: { name, namespace: 'default', labels: { app: 'web' } } });
const incoming = (spec: NonNullable<Pod['spec']> = { containers: [] }): Pod => ({
  metadata: { name: 'new', namespace: 'default', labels: { app: 'web' } },
  spec,
});

describe('PodTopologySpread scores', () => {
  it("scores a ScheduleAnyway constraint's domains by their matching pods, scaled as kube does", () => {
    const nodes = [node('n1', 'a'), node('n2', 'a'), node('n3', 'b')];
    const pods: Record<string, Pod[]> = { n1: [web('w1'), web('w2')], n3: [web('w3')] };
    const pod = incoming({
      containers: [],
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    });
    // Two domains weigh ln(4) each pod: zone a holds 2 (2.77 → 3), zone b 1 (1.39 → 1);
    // normalized 100 × (3 + 1 − s) / 3.
    const scores = podTopologySpreadScores(pod, {
      filtered: nodes,
      all: nodes,
      podsOn: (n) => pods[n] ?? [],
      defaultSelector: () => undefined,
    });
    assert.deepEqual(scores, [33, 33, 100]);
  });

  it('spreads a pod without constraints by the system defaults over what selects it, nodes without a zone too', () => {
    const nodes = [node('n1'), node('n2')];
    const pods: Record<string, Pod[]> = {
      n1: [
        web('w1'),
        { ...web('other-ns'), metadata: { name: 'x', namespace: 'other', labels: { app: 'web' } } },
      ],
    };
    // hostname (maxSkew 3, two nodes: ln(4)): n1 1 × 1.39 + 2 → 3, n2 0 + 2 → 2; no zone label to score.
    const scores = podTopologySpreadScores(incoming(), {
      filtered: nodes,
      all: nodes,
      podsOn: (n) => pods[n] ?? [],
      defaultSelector: () => selectorFromSet({ app: 'web' }),
    });
    assert.deepEqual(scores, [66, 100]);
  });

  it('skips a pod nothing selects, and one whose constraints are all DoNotSchedule', () => {
    const nodes = [node('n1')];
    const input = { filtered: nodes, all: nodes, podsOn: () => [], defaultSelector: () => undefined };
    assert.equal(podTopologySpreadScores(incoming(), input), undefined);
    const hard = incoming({
      containers: [],
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'kubernetes.io/hostname',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    });
    assert.equal(
      podTopologySpreadScores(hard, { ...input, defaultSelector: () => selectorFromSet({ app: 'web' }) }),
      undefined,
    );
  });
});
