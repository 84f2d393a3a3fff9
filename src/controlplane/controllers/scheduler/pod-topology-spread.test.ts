import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { TopologySpreadConstraint } from '../../../api/core/v1/pod-spec-parts.js';
import {
  podTopologySpreadFilter,
  spreadConstraintsNotMatch,
  spreadLabelMissing,
} from './pod-topology-spread.js';

const node = (name: string, zone?: string, extra: Partial<Node> = {}): Node => ({
  metadata: { name, labels: { ...(zone === undefined ? {} : { zone }) } },
  ...extra,
});
const pod = (labels: Record<string, string>, more: { ns?: string; deleting?: boolean } = {}): Pod => ({
  metadata: {
    name: 'p',
    namespace: more.ns ?? 'ns',
    labels,
    ...(more.deleting === true ? { deletionTimestamp: '2026-12-03T00:00:00Z' } : {}),
  },
  spec: { containers: [{ name: 'c' }] },
});
const constrained = (
  labels: Record<string, string>,
  ...constraints: Partial<TopologySpreadConstraint>[]
): Pod => ({
  ...pod(labels),
  spec: {
    containers: [{ name: 'c' }],
    topologySpreadConstraints: (constraints.length === 0 ? [{}] : constraints).map((c) => ({
      maxSkew: 1,
      topologyKey: 'zone',
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'web' } },
      ...c,
    })),
  },
});

/** The filter for the pod, which a test expects not to be skipped. */
function filterFor(p: Pod, nodes: readonly Node[], podsOn: (node: string) => readonly Pod[]) {
  const filter = podTopologySpreadFilter(p, nodes, podsOn);
  assert.ok(filter !== undefined, 'the filter was skipped');
  return filter;
}

describe('PodTopologySpread filter', () => {
  const [a, b, c] = [node('a1', 'a'), node('b1', 'b'), node('c1', 'c')];
  const placed = (byNode: Record<string, Pod[]>) => (name: string) => byNode[name] ?? [];

  it('is skipped without DoNotSchedule constraints', () => {
    const soft = constrained({ app: 'web' }, { whenUnsatisfiable: 'ScheduleAnyway' });
    assert.equal(podTopologySpreadFilter(soft, [a, b], placed({})), undefined);
  });

  it('refuses a domain whose matching pods, with the pod, pass the least domain by more than maxSkew', () => {
    const filter = filterFor(constrained({ app: 'web' }), [a, b, c], placed({ a1: [pod({ app: 'web' })] }));
    assert.deepEqual(filter(a), { reason: spreadConstraintsNotMatch, unresolvable: false });
    assert.equal(filter(b), undefined);
    // A node without the topology label cannot be placed on at all.
    assert.deepEqual(filter(node('bare')), { reason: spreadLabelMissing, unresolvable: true });
    // A pod its own selector does not match adds nothing to the skew.
    const other = filterFor(constrained({ app: 'api' }), [a, b], placed({ a1: [pod({ app: 'web' })] }));
    assert.equal(other(a), undefined);
  });

  it('counts pods of the namespace only, and not while they terminate', () => {
    const elsewhere = [pod({ app: 'web' }, { ns: 'other' }), pod({ app: 'web' }, { deleting: true })];
    const filter = filterFor(constrained({ app: 'web' }), [a, b], placed({ a1: elsewhere }));
    assert.equal(filter(a), undefined);
  });

  it('takes the least domain as 0 while there are fewer domains than minDomains', () => {
    const pods = placed({ a1: [pod({ app: 'web' })], b1: [pod({ app: 'web' })] });
    assert.equal(filterFor(constrained({ app: 'web' }), [a, b], pods)(a), undefined);
    const filter = filterFor(constrained({ app: 'web' }, { minDomains: 3 }), [a, b], pods);
    assert.deepEqual(filter(a), { reason: spreadConstraintsNotMatch, unresolvable: false });
  });

  it("adds the pod's values of matchLabelKeys to the selector", () => {
    const v1 = pod({ app: 'web', rev: '1' });
    const incoming = constrained({ app: 'web', rev: '2' }, { matchLabelKeys: ['rev'] });
    // The rev-1 pod on a1 is not counted for a rev-2 pod.
    assert.equal(filterFor(incoming, [a, b], placed({ a1: [v1] }))(a), undefined);
  });

  it("counts only nodes the pod's node affinity selects, and tainted ones unless taints are honoured", () => {
    const pods = placed({ a1: [pod({ app: 'web' })] });
    const withSelector = (p: Pod): Pod => ({
      ...p,
      spec: { ...p.spec, containers: [], nodeSelector: { zone: 'a' } },
    });
    // Only a1 counts: it is the least domain itself.
    assert.equal(filterFor(withSelector(constrained({ app: 'web' })), [a, b], pods)(a), undefined);
    const ignoring = withSelector(constrained({ app: 'web' }, { nodeAffinityPolicy: 'Ignore' }));
    assert.deepEqual(filterFor(ignoring, [a, b], pods)(a), {
      reason: spreadConstraintsNotMatch,
      unresolvable: false,
    });
    const tainted = node('b1', 'b', { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } });
    assert.deepEqual(filterFor(constrained({ app: 'web' }), [a, tainted], pods)(a), {
      reason: spreadConstraintsNotMatch,
      unresolvable: false,
    });
    const honouring = constrained({ app: 'web' }, { nodeTaintsPolicy: 'Honor' });
    assert.equal(filterFor(honouring, [a, tainted], pods)(a), undefined);
  });
});
