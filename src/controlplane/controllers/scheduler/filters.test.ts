import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { filterNode, fitErrorMessage, matchesNodeAffinity, tolerates } from './filters.js';
import { nodeAllocatable, podRequests } from './resources.js';

const node = (extra: Partial<Node> = {}): Node => ({
  metadata: { name: 'n1', labels: { zone: 'a', size: '8' } },
  status: { allocatable: { cpu: '2', memory: '4Gi', pods: '2' } },
  ...extra,
});
const pod = (spec: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu: '500m' } } }], ...spec },
});
const fit = (p: Pod, n: Node, used = new Map<string, bigint>()) =>
  filterNode({ pod: p, requests: podRequests(p), node: n, used, allocatable: nodeAllocatable(n) });

describe('scheduler filters', () => {
  it('sums container requests, raised to the largest init container, plus overhead', () => {
    const r = podRequests(
      pod({
        containers: [
          { name: 'a', resources: { requests: { cpu: '100m' } } },
          { name: 'b', resources: { requests: { cpu: '200m', memory: '1Ki' } } },
        ],
        initContainers: [{ name: 'i', resources: { requests: { cpu: '1' } } }],
        overhead: { cpu: '10m' },
      }),
    );
    assert.equal(r.get('cpu'), 1010n);
    assert.equal(r.get('memory'), 1_024_000n);
  });

  it('reports insufficient resources and too many pods in kube words', () => {
    const used = new Map([
      ['cpu', 1800n],
      ['pods', 2000n],
    ]);
    assert.deepEqual(fit(pod(), node(), used).reasons, ['Too many pods', 'Insufficient cpu']);
    assert.deepEqual(fit(pod(), node()).reasons, []);
  });

  it('matches nodeSelector and required node affinity operators', () => {
    const terms = (expr: Record<string, unknown>) => ({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr] }] },
      },
    });
    assert.equal(matchesNodeAffinity(pod({ nodeSelector: { zone: 'a' } }), node()), true);
    assert.equal(matchesNodeAffinity(pod({ nodeSelector: { zone: 'b' } }), node()), false);
    assert.equal(
      matchesNodeAffinity(pod({ affinity: terms({ key: 'size', operator: 'Gt', values: ['4'] }) }), node()),
      true,
    );
    assert.equal(
      matchesNodeAffinity(pod({ affinity: terms({ key: 'size', operator: 'Lt', values: ['4'] }) }), node()),
      false,
    );
    assert.equal(
      matchesNodeAffinity(pod({ affinity: terms({ key: 'gpu', operator: 'DoesNotExist' }) }), node()),
      true,
    );
    assert.equal(
      matchesNodeAffinity(
        pod({ affinity: terms({ key: 'zone', operator: 'NotIn', values: ['a'] }) }),
        node(),
      ),
      false,
    );
  });

  it('refuses untolerated NoSchedule taints and cordoned nodes, as unresolvable', () => {
    const tainted = node({ spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } });
    assert.deepEqual(fit(pod(), tainted), {
      reasons: ['node(s) had untolerated taint {dedicated: db}'],
      unresolvable: true,
    });
    const tolerated = pod({
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }],
    });
    assert.deepEqual(fit(tolerated, tainted).reasons, []);
    assert.equal(tolerates({ operator: 'Exists' }, { key: 'x', effect: 'NoExecute' }), true);
    assert.deepEqual(fit(pod(), node({ spec: { unschedulable: true } })).reasons, [
      'node(s) were unschedulable',
    ]);
  });

  it('words the FitError with counted, sorted reasons and what preemption found', () => {
    const preemption = fitErrorMessage(3, [
      { reasons: ['Preemption is not helpful for scheduling'], unresolvable: true },
      { reasons: ['No preemption victims found for incoming pod'], unresolvable: true },
      { reasons: ['No preemption victims found for incoming pod'], unresolvable: true },
    ]);
    const msg = fitErrorMessage(
      3,
      [
        { reasons: ['Insufficient cpu'], unresolvable: false },
        { reasons: ['Insufficient cpu', 'Insufficient memory'], unresolvable: false },
        { reasons: ['node(s) were unschedulable'], unresolvable: true },
      ],
      `preemption: ${preemption}`,
    );
    // kube closes each part with a period, the preemption part too: it ends with two.
    assert.equal(
      msg,
      '0/3 nodes are available: 1 Insufficient memory, 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod..',
    );
    // A preemption that made room adds nothing.
    assert.equal(
      fitErrorMessage(1, [{ reasons: ['Insufficient cpu'], unresolvable: false }], ''),
      '0/1 nodes are available: 1 Insufficient cpu.',
    );
    assert.equal(fitErrorMessage(0, []), 'no nodes available to schedule pods');
  });

  it('refuses a node where a host port the pod asks for is taken (NodePorts)', () => {
    const withPort = (hostPort: number, more: { hostIP?: string; protocol?: string } = {}): Pod =>
      pod({ containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort, ...more }] }] });
    const onNode = (p: Pod, others: Pod[]) =>
      filterNode({
        pod: p,
        requests: podRequests(p),
        node: node(),
        used: new Map<string, bigint>(),
        allocatable: nodeAllocatable(node()),
        podsOnNode: () => others,
      });
    const taken = {
      reasons: ["node(s) didn't have free ports for the requested pod ports"],
      unresolvable: false,
    };
    assert.deepEqual(onNode(withPort(8080), [withPort(8080)]), taken);
    // Any address (none given) meets every specific one.
    assert.deepEqual(onNode(withPort(8080, { hostIP: '10.0.0.1' }), [withPort(8080)]), taken);
    assert.deepEqual(onNode(withPort(8080, { protocol: 'TCP' }), [withPort(8080)]), taken);
    // Other addresses, another protocol or another port do not conflict.
    assert.equal(
      onNode(withPort(8080, { hostIP: '10.0.0.1' }), [withPort(8080, { hostIP: '10.0.0.2' })]).reasons.length,
      0,
    );
    assert.equal(onNode(withPort(8080, { protocol: 'UDP' }), [withPort(8080)]).reasons.length, 0);
    assert.equal(onNode(withPort(8081), [withPort(8080)]).reasons.length, 0);
    // A container port without a host port takes none.
    assert.equal(onNode(withPort(0), [withPort(0)]).reasons.length, 0);
    // A sidecar (an init container restarted Always) holds its host port as long as the pod runs;
    // an init container that runs to completion first holds none.
    const initWithPort = (restartPolicy?: string): Pod =>
      pod({
        initContainers: [
          {
            name: 'i',
            ...(restartPolicy === undefined ? {} : { restartPolicy }),
            ports: [{ containerPort: 80, hostPort: 8080 }],
          },
        ],
      });
    assert.deepEqual(onNode(withPort(8080), [initWithPort('Always')]), taken);
    assert.deepEqual(onNode(initWithPort('Always'), [withPort(8080)]), taken);
    assert.equal(onNode(withPort(8080), [initWithPort()]).reasons.length, 0);
    assert.equal(onNode(initWithPort(), [withPort(8080)]).reasons.length, 0);
  });
});

describe('podRequests as kube-scheduler counts them', () => {
  it('adds sidecars to the containers, and takes an init container alone beside the sidecars before it', () => {
    const p = pod({
      initContainers: [
        { name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '200m' } } },
        { name: 'setup', resources: { requests: { cpu: '600m' } } },
      ],
    });
    // containers 500m + sidecar 200m = 700m; setup runs beside the sidecar: 600m + 200m = 800m.
    assert.equal(podRequests(p).get('cpu'), 800n);
    p.spec?.initContainers?.pop();
    assert.equal(podRequests(p).get('cpu'), 700n);
  });
});
