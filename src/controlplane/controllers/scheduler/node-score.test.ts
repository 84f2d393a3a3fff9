import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { scoreNodes, type ScoreContext, type ScoredNode } from './node-score.js';

const gi = 1024n * 1024n * 1024n * 1000n;
const node = (name: string, extra: Partial<Node> = {}): Node => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
  ...extra,
});
const scored = (n: Node, cpuMilli = 0n, memory = 0n): ScoredNode => {
  const used = new Map([
    ['cpu', cpuMilli],
    ['memory', memory],
  ]);
  return { node: n, requested: used, nonZeroRequested: used };
};
const pod = (spec: Partial<NonNullable<Pod['spec']>> = {}, labels: Record<string, string> = {}): Pod => ({
  metadata: { name: 'p', namespace: 'default', labels },
  spec: {
    containers: [{ name: 'c', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
    ...spec,
  },
});
/** A context of these nodes with these pods on them (by node name), nothing selecting pods. */
const contextOf = (nodes: Node[], pods: Record<string, Pod[]> = {}): ScoreContext => ({
  nodes,
  podsOn: (name) => pods[name] ?? [],
  nsLabels: () => undefined,
  defaultSpreadSelector: () => undefined,
});
const noPlaced = contextOf([]);

describe('node scores, as kube-scheduler sums its default plugins', () => {
  it('LeastAllocated and BalancedAllocation over cpu and memory, TaintToleration at its full 3 × 100', () => {
    // Node a: 2 cpu and 2Gi in use. LeastAllocated with the pod: cpu (4-3)/4 → 25, memory (8-3)/8
    // → 62, averaged 43; balanced: |3/4 - 3/8| / 2 = 0.1875 → 81. Node b, empty: 75 and 87 → 81;
    // |1/4 - 1/8| / 2 → 93. No taints: 100 each, weight 3.
    const scores = scoreNodes(pod(), [scored(node('a'), 2000n, 2n * gi), scored(node('b'))], noPlaced);
    assert.deepEqual(scores, [300 + 43 + 81, 300 + 81 + 93]);
  });

  it('counts a pod without requests at 100m and 200Mi for LeastAllocated, and skips BalancedAllocation', () => {
    const bestEffort = pod({ containers: [{ name: 'c' }] });
    // cpu (4000-100)*100/4000 = 97; memory (8Gi-200Mi)*100/8Gi = 97; no balanced score.
    assert.deepEqual(scoreNodes(bestEffort, [scored(node('a'))], noPlaced), [300 + 97]);
  });

  it('adds ImageLocality at weight 1: the node holding the spread-scaled image scores more', () => {
    const holding = node('a', {
      status: { ...node('a').status, images: [{ names: ['gcr.io/app:v1'], sizeBytes: 1000 * 1024 * 1024 }] },
    });
    const imaged = pod({
      containers: [
        { name: 'c', image: 'gcr.io/app:v1', resources: { requests: { cpu: '1', memory: '1Gi' } } },
      ],
    });
    const both = [holding, node('b')];
    // 1000 MiB on 1 of 2 nodes: 500 MiB → 100 × (500 − 23) / (1000 − 23) → 48; the rest is equal.
    const [a, b] = scoreNodes(
      imaged,
      both.map((n) => scored(n)),
      contextOf(both),
    );
    assert.equal((a ?? 0) - (b ?? 0), 48);
  });

  it("scores a node's untolerated PreferNoSchedule taints, fewest best", () => {
    const tainted = node('a', {
      spec: { taints: [{ key: 'dedicated', value: 'x', effect: 'PreferNoSchedule' }] },
    });
    const plain = node('b');
    const both = [scored(tainted), scored(plain)];
    const [a, b] = scoreNodes(pod(), both, noPlaced);
    assert.equal((b ?? 0) - (a ?? 0), 300);
    // A toleration without an effect tolerates PreferNoSchedule too.
    const tolerant = pod({
      containers: [{ name: 'c', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
      tolerations: [{ key: 'dedicated', operator: 'Exists' }],
    });
    const [ta, tb] = scoreNodes(tolerant, both, noPlaced);
    assert.equal(ta, tb);
  });

  it("weighs preferred node affinity terms, scaled to the best node's sum", () => {
    const zoned = (name: string, zone: string) =>
      node(name, { metadata: { name, labels: { 'kubernetes.io/hostname': name, zone } } });
    const prefers = pod({
      containers: [{ name: 'c', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 10,
              preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] },
            },
            { weight: 5, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
          ],
        },
      },
    });
    const [a, b, c] = scoreNodes(
      prefers,
      [scored(zoned('a', 'a')), scored(zoned('b', 'b')), scored(zoned('c', 'c'))],
      noPlaced,
    );
    // 5 and 10 of 10: 50 and 100, weight 2; none: 0.
    assert.equal((b ?? 0) - (a ?? 0), 100);
    assert.equal((a ?? 0) - (c ?? 0), 100);
  });

  it('scales inter-pod affinity sums between the lowest and the highest node', () => {
    const a = node('a');
    const b = node('b');
    const c = node('c');
    const web: Pod = {
      metadata: { name: 'w', namespace: 'default', labels: { app: 'web' } },
      spec: { containers: [] },
    };

    const term = {
      weight: 100,
      podAffinityTerm: {
        labelSelector: { matchLabels: { app: 'web' } },
        topologyKey: 'kubernetes.io/hostname',
      },
    };
    const nodes = [scored(a), scored(b), scored(c)];
    const ctx = contextOf([a, b, c], { a: [web] });
    const near = scoreNodes(
      pod({ affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [term] } } }),
      nodes,
      ctx,
    );
    // a: 100, b and c: 0 → a scores 100 × 2 more.
    assert.equal((near[0] ?? 0) - (near[1] ?? 0), 200);
    assert.equal(near[1], near[2]);
    const far = scoreNodes(
      pod({ affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [term] } } }),
      nodes,
      ctx,
    );
    // a: -100 (the lowest, 0), b and c: 0 (the highest, 100).
    assert.equal((far[1] ?? 0) - (far[0] ?? 0), 200);
    // A placed pod's required affinity term the pod matches counts 1 for its domain.
    const magnet: Pod = {
      metadata: { name: 'm', namespace: 'default' },
      spec: {
        containers: [],
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { role: 'x' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      },
    };
    const drawn = scoreNodes(pod({}, { role: 'x' }), nodes, contextOf([a, b, c], { b: [magnet] }));
    assert.equal((drawn[1] ?? 0) - (drawn[0] ?? 0), 200);
  });
});
