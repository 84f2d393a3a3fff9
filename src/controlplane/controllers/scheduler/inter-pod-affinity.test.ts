import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodAffinityTerm } from '../../../api/core/v1/affinity.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import {
  affinityRulesNotMatch,
  antiAffinityRulesNotMatch,
  existingAntiAffinityRulesNotMatch,
  interPodAffinityFilter,
  type NamespaceLabels,
  type PlacedPod,
} from './inter-pod-affinity.js';

const node = (name: string, zone?: string): Node => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(zone === undefined ? {} : { zone }) } },
});
const term = (labels: Record<string, string>, topologyKey: string, extra: Partial<PodAffinityTerm> = {}) => ({
  labelSelector: { matchLabels: labels },
  topologyKey,
  ...extra,
});
const pod = (
  labels: Record<string, string>,
  affinity: { affinity?: PodAffinityTerm[]; anti?: PodAffinityTerm[] } = {},
  namespace = 'ns',
): Pod => ({
  metadata: { name: 'p', namespace, labels },
  spec: {
    containers: [{ name: 'c' }],
    affinity: {
      ...(affinity.affinity === undefined
        ? {}
        : { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: affinity.affinity } }),
      ...(affinity.anti === undefined
        ? {}
        : { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: affinity.anti } }),
    },
  },
});
const on = (p: Pod, n: Node): PlacedPod => ({ pod: p, nodeLabels: n.metadata?.labels ?? {} });
const noNamespaces = () => undefined;

/** The filter for the pod, which a test expects not to be skipped. */
function filterFor(p: Pod, placed: PlacedPod[], namespaces: NamespaceLabels = noNamespaces) {
  const filter = interPodAffinityFilter(p, placed, namespaces);
  assert.ok(filter !== undefined, 'the filter was skipped');
  return filter;
}

describe('InterPodAffinity filter', () => {
  const [a1, a2, b1, bare] = [node('a1', 'a'), node('a2', 'a'), node('b1', 'b'), node('bare')];

  it('skips pods without required terms when no placed pod has anti-affinity', () => {
    assert.equal(
      interPodAffinityFilter(pod({ app: 'x' }), [on(pod({ app: 'x' }), a1)], noNamespaces),
      undefined,
    );
  });

  it('keeps a pod out of a topology domain holding a pod its anti-affinity selects', () => {
    const incoming = pod({ app: 'web' }, { anti: [term({ app: 'web' }, 'zone')] });
    const filter = filterFor(incoming, [on(pod({ app: 'web' }), a1)], noNamespaces);
    assert.deepEqual(filter(a2), { reason: antiAffinityRulesNotMatch, unresolvable: false });
    assert.equal(filter(b1), undefined);
    // A node without the topology label is no domain of the term's.
    assert.equal(filter(bare), undefined);
  });

  it("keeps a pod out of a domain where a placed pod's anti-affinity selects it", () => {
    const placed = pod({ app: 'db' }, { anti: [term({ app: 'web' }, 'zone')] });
    const filter = filterFor(pod({ app: 'web' }), [on(placed, a1)], noNamespaces);
    assert.deepEqual(filter(a2), { reason: existingAntiAffinityRulesNotMatch, unresolvable: false });
    assert.equal(filter(b1), undefined);
  });

  it('puts a pod only in a domain holding a pod that matches all its affinity terms', () => {
    const incoming = pod({ app: 'web' }, { affinity: [term({ app: 'db' }, 'zone')] });
    const filter = filterFor(incoming, [on(pod({ app: 'db' }), a1)], noNamespaces);
    assert.equal(filter(a2), undefined);
    assert.deepEqual(filter(b1), { reason: affinityRulesNotMatch, unresolvable: true });
    assert.deepEqual(filter(bare), { reason: affinityRulesNotMatch, unresolvable: true });
  });

  it('lets the first pod of a group that attracts itself go anywhere its topology label is', () => {
    const first = pod({ app: 'web' }, { affinity: [term({ app: 'web' }, 'zone')] });
    const filter = filterFor(first, [], noNamespaces);
    assert.equal(filter(b1), undefined);
    assert.deepEqual(filter(bare), { reason: affinityRulesNotMatch, unresolvable: true });
    // A pod that does not match its own terms waits for one that does.
    const other = pod({ app: 'api' }, { affinity: [term({ app: 'web' }, 'zone')] });
    assert.deepEqual(filterFor(other, [], noNamespaces)(b1), {
      reason: affinityRulesNotMatch,
      unresolvable: true,
    });
  });

  it("selects pods in the term's namespaces: its own by default, listed ones, or those a selector picks", () => {
    const elsewhere = on(pod({ app: 'db' }, {}, 'other'), a1);
    const own = pod({ app: 'web' }, { affinity: [term({ app: 'db' }, 'zone')] });
    assert.deepEqual(filterFor(own, [elsewhere], noNamespaces)(a2), {
      reason: affinityRulesNotMatch,
      unresolvable: true,
    });
    const listed = pod(
      { app: 'web' },
      { affinity: [term({ app: 'db' }, 'zone', { namespaces: ['other'] })] },
    );
    assert.equal(filterFor(listed, [elsewhere], noNamespaces)(a2), undefined);
    const bySelector = pod(
      { app: 'web' },
      { affinity: [term({ app: 'db' }, 'zone', { namespaceSelector: { matchLabels: { team: 'data' } } })] },
    );
    const labels = (name: string) => (name === 'other' ? { team: 'data' } : undefined);
    assert.equal(filterFor(bySelector, [elsewhere], labels)(a2), undefined);
    assert.deepEqual(filterFor(bySelector, [elsewhere], noNamespaces)(a2), {
      reason: affinityRulesNotMatch,
      unresolvable: true,
    });
  });
});
