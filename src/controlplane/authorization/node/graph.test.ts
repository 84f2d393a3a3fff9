// The graph's edges and deletions (graph.go): shared objects stay while any pod uses them, orphans go
// with their last neighbour, and a walk never crosses into another node's edges.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Graph } from './graph.js';

const pod = (name: string, nodeName: string, secrets: string[], claims: string[] = []) => ({
  namespace: 'ns',
  name,
  nodeName,
  mirror: false,
  serviceAccountName: '',
  secrets,
  configMaps: [],
  claims,
  resourceClaims: [],
});

describe('Node authorizer graph', () => {
  it('keeps a shared secret until its last pod goes, then drops it and the idle node', () => {
    const g = new Graph();
    g.addPod(pod('a', 'n1', ['shared']));
    g.addPod(pod('b', 'n2', ['shared']));
    const path = (node: string) =>
      g.hasPathFrom(node, { type: 'secret', namespace: 'ns', name: 'shared' }).ok;
    assert.equal(path('n1'), true);
    assert.equal(path('n2'), true);
    g.deletePod('ns', 'a');
    assert.equal(path('n1'), false);
    assert.equal(g.has('node', '', 'n1'), false);
    assert.equal(path('n2'), true);
    g.deletePod('ns', 'b');
    assert.equal(g.has('secret', 'ns', 'shared'), false);
    assert.equal(g.size, 0);
  });

  it('reaches a PV secret through the claim only from the node of a pod using the claim', () => {
    const g = new Graph();
    g.addPV({ name: 'pv', claim: { namespace: 'ns', name: 'c' }, secrets: [{ namespace: 'ns', name: 's' }] });
    g.addPod(pod('a', 'n1', [], ['c']));
    g.addPod(pod('other', 'n2', ['x']));
    const start = { type: 'secret', namespace: 'ns', name: 's' } as const;
    assert.deepEqual(g.hasPathFrom('n1', start), { ok: true });
    assert.deepEqual(g.hasPathFrom('n2', start), {
      ok: false,
      why: "node 'n2' cannot get secret ns/s, no relationship to this object was found in the node authorizer graph",
    });
    assert.equal(g.hasPathFrom('n3', start).ok, false);
    // A PV losing its claim loses its edges.
    g.addPV({ name: 'pv', claim: undefined, secrets: [] });
    assert.equal(g.hasPathFrom('n1', start).ok, false);
  });
});
