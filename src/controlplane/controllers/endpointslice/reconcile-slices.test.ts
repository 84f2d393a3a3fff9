import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint, EndpointSlice, EndpointSlicePort } from '../../../api/discovery/v1/endpoint-slice.js';
import { reconcileSlices, type SlicePlan } from './reconcile-slices.js';

const http: EndpointSlicePort[] = [{ name: 'http', port: 8080, protocol: 'TCP' }];
const endpoint = (i: number, ready = true): Endpoint => ({
  addresses: [`10.0.${String(Math.floor(i / 250))}.${String(i % 250)}`],
  conditions: { ready, serving: ready, terminating: false },
  targetRef: { kind: 'Pod', namespace: 'default', name: `p${String(i)}`, uid: `u${String(i)}` },
});
const range = (from: number, to: number): Endpoint[] =>
  Array.from({ length: to - from }, (_, k) => endpoint(from + k));
const slice = (name: string, endpoints: Endpoint[], ports = http): EndpointSlice => ({
  metadata: { name, resourceVersion: '7' },
  addressType: 'IPv4',
  endpoints,
  ports,
});
const names = (eps: readonly Endpoint[] | undefined): string[] =>
  (eps ?? []).map((e) => (e.targetRef?.['name'] as string | undefined) ?? '');
/** The plan as counts: created slices' sizes, updated slices' names and sizes, removed names. */
const shape = (p: SlicePlan) => ({
  create: p.create.map((s) => s.endpoints.length),
  update: p.update.map((s) => [s.metadata?.name, (s.endpoints ?? []).length]),
  remove: p.remove.map((s) => s.metadata?.name),
});

describe('spreading endpoints over EndpointSlices', () => {
  it('makes slices of at most 100 endpoints', () => {
    const plan = reconcileSlices([], [{ ports: http, endpoints: range(0, 250) }]);
    assert.deepEqual(shape(plan), { create: [100, 100, 50], update: [], remove: [] });
    assert.deepEqual(plan.create[2]?.ports, http);
    assert.deepEqual(
      plan.create.flatMap((s) => names(s.endpoints)),
      names(range(0, 250)),
    );
  });

  it('leaves slices that hold what is wanted alone', () => {
    const existing = [slice('a', range(0, 100)), slice('b', range(100, 150))];
    assert.deepEqual(shape(reconcileSlices(existing, [{ ports: http, endpoints: range(0, 150) }])), {
      create: [],
      update: [],
      remove: [],
    });
  });

  it('rewrites a slice that lost or changed endpoints, and fills it with the new ones', () => {
    const existing = [slice('a', range(0, 100)), slice('b', range(100, 200))];
    // p5 to p14 are gone, p20 is no longer ready, p200 to p204 are new.
    const wanted = [...range(0, 5), ...range(15, 200), ...range(200, 205)].map((e) =>
      e.targetRef?.['name'] === 'p20' ? endpoint(20, false) : e,
    );
    const plan = reconcileSlices(existing, [{ ports: http, endpoints: wanted }]);
    assert.deepEqual(shape(plan), { create: [], update: [['a', 95]], remove: [] });
    const a = plan.update[0]?.endpoints ?? [];
    assert.equal(a.find((e) => e.targetRef?.['name'] === 'p20')?.conditions?.ready, false);
    assert.deepEqual(names(a).slice(-5), ['p200', 'p201', 'p202', 'p203', 'p204']);
  });

  it('puts a few new endpoints in the unchanged slice with the least room that takes them all', () => {
    const existing = [slice('a', range(0, 40)), slice('b', range(40, 110)), slice('c', range(110, 210))];
    const plan = reconcileSlices(existing, [{ ports: http, endpoints: range(0, 235) }]);
    // 25 new: b (30 free) takes them, not a (60 free); c is full.
    assert.deepEqual(shape(plan), { create: [], update: [['b', 95]], remove: [] });
    // 150 new: a new full slice first, then the 50 left go to a, the only one with room for them.
    const more = reconcileSlices(existing, [{ ports: http, endpoints: range(0, 360) }]);
    assert.deepEqual(shape(more), { create: [100], update: [['a', 90]], remove: [] });
  });

  it('removes a slice left empty, rewriting it in place of a new one where one is made', () => {
    const existing = [slice('a', range(0, 100)), slice('b', range(100, 130))];
    assert.deepEqual(shape(reconcileSlices(existing, [{ ports: http, endpoints: range(0, 100) }])), {
      create: [],
      update: [],
      remove: ['b'],
    });
    // New ports: every endpoint moves to slices of those ports, made by rewriting the old ones.
    const https: EndpointSlicePort[] = [{ name: 'https', port: 8443, protocol: 'TCP' }];
    const moved = reconcileSlices(existing, [{ ports: https, endpoints: range(0, 130) }]);
    assert.deepEqual(shape(moved), {
      create: [],
      update: [
        ['a', 30],
        ['b', 100],
      ],
      remove: [],
    });
    assert.deepEqual(moved.update[0]?.ports, https);
  });

  it('leaves a slice already past 100 (an older writer) as large, and adds to none', () => {
    const existing = [slice('big', range(0, 150))];
    // One gone, five new: the big slice is rewritten without it, the new ones get a slice.
    const plan = reconcileSlices(existing, [{ ports: http, endpoints: range(1, 155) }]);
    assert.deepEqual(shape(plan), { create: [5], update: [['big', 149]], remove: [] });
    assert.deepEqual(names(plan.create[0]?.endpoints), ['p150', 'p151', 'p152', 'p153', 'p154']);
  });

  it('gives each set of resolved ports slices of its own', () => {
    const other: EndpointSlicePort[] = [{ name: 'http', port: 9090, protocol: 'TCP' }];
    const plan = reconcileSlices(
      [],
      [
        { ports: http, endpoints: range(0, 3) },
        { ports: other, endpoints: range(3, 5) },
      ],
    );
    assert.deepEqual(
      plan.create.map((s) => [s.ports[0]?.port, names(s.endpoints)]),
      [
        [8080, ['p0', 'p1', 'p2']],
        [9090, ['p3', 'p4']],
      ],
    );
  });

  it('keeps one placeholder slice without ports for a Service with no endpoints', () => {
    const existing = [slice('a', range(0, 100)), slice('b', range(100, 130))];
    const emptied = reconcileSlices(existing, []);
    assert.deepEqual(shape(emptied), { create: [], update: [['a', 0]], remove: ['b'] });
    assert.deepEqual(emptied.update[0]?.ports, []);
    assert.deepEqual(shape(reconcileSlices([], [])), { create: [0], update: [], remove: [] });
    const placeholder = slice('p', [], []);
    assert.deepEqual(shape(reconcileSlices([placeholder], [])), { create: [], update: [], remove: [] });
    // Once there are endpoints, the placeholder is rewritten to hold them.
    assert.deepEqual(shape(reconcileSlices([placeholder], [{ ports: http, endpoints: range(0, 2) }])), {
      create: [],
      update: [['p', 2]],
      remove: [],
    });
  });
});
