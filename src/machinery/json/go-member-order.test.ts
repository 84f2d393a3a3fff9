import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { inGoMemberOrder } from './go-member-order.js';
import { inSortedMemberOrder } from './sorted-members.js';

const scheme = builtinScheme();
type Obj = Record<string, unknown>;
const keys = (v: unknown): string[] => Object.keys(v as Obj);
const at = (v: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], v);

// A Pod as kubectl sends it: keys sorted at every level.
const sortedPod = inSortedMemberOrder({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name: 'p', namespace: 'd', labels: { b: '1', a: '2' }, uid: 'u' },
  spec: {
    restartPolicy: 'Always',
    containers: [
      {
        name: 'c',
        image: 'nginx',
        ports: [{ protocol: 'TCP', containerPort: 80, name: 'http' }],
        securityContext: { runAsUser: 1, privileged: false, capabilities: { drop: ['ALL'] } },
        env: [{ value: 'x', name: 'A' }],
        xUnknown: 1,
      },
    ],
    initContainers: [{ name: 'i', image: 'busybox' }],
    volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }],
    nodeSelector: { z: '1', a: '2' },
    ephemeralContainers: [{ targetContainerName: 'c', name: 'e', image: 'busybox' }],
  },
  status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: null }] },
});

describe('inGoMemberOrder (Go struct field order)', () => {
  const pod = inGoMemberOrder(scheme, sortedPod);

  it('puts TypeMeta, ObjectMeta and the kind’s own members in Go order', () => {
    assert.deepEqual(keys(pod), ['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    assert.deepEqual(keys(at(pod, 'metadata')), ['name', 'namespace', 'uid', 'labels']);
  });

  it('orders nested structs, lists of structs and embedded structs where Go embeds them', () => {
    assert.deepEqual(keys(at(pod, 'spec')), [
      'volumes',
      'initContainers',
      'containers',
      'ephemeralContainers',
      'restartPolicy',
      'nodeSelector',
    ]);
    assert.deepEqual(keys(at(pod, 'spec', 'containers', 0)), [
      'name',
      'image',
      'ports',
      'env',
      'securityContext',
      'xUnknown',
    ]);
    assert.deepEqual(keys(at(pod, 'spec', 'containers', 0, 'ports', 0)), [
      'name',
      'containerPort',
      'protocol',
    ]);
    assert.deepEqual(keys(at(pod, 'spec', 'containers', 0, 'env', 0)), ['name', 'value']);
    assert.deepEqual(keys(at(pod, 'spec', 'containers', 0, 'securityContext')), [
      'capabilities',
      'privileged',
      'runAsUser',
    ]);
    // Volume embeds VolumeSource; ConfigMapVolumeSource embeds LocalObjectReference.
    assert.deepEqual(keys(at(pod, 'spec', 'volumes', 0)), ['name', 'configMap']);
    assert.deepEqual(keys(at(pod, 'spec', 'volumes', 0, 'configMap')), ['name', 'defaultMode']);
    // EphemeralContainer embeds EphemeralContainerCommon (Container's fields) before its own.
    assert.deepEqual(keys(at(pod, 'spec', 'ephemeralContainers', 0)), [
      'name',
      'image',
      'targetContainerName',
    ]);
    assert.deepEqual(keys(at(pod, 'status', 'conditions', 0)), ['type', 'status', 'lastTransitionTime']);
  });

  it('writes maps with their keys sorted, as Go does', () => {
    const unsorted = { ...sortedPod, metadata: { name: 'p', labels: { b: '1', a: '2', B: '3' } } };
    assert.deepEqual(keys(at(inGoMemberOrder(scheme, unsorted), 'metadata', 'labels')), ['B', 'a', 'b']);
    assert.deepEqual(keys(at(pod, 'spec', 'nodeSelector')), ['a', 'z']);
  });

  it('orders a pod template nested in another kind', () => {
    const job = inSortedMemberOrder({
      kind: 'Job',
      apiVersion: 'batch/v1',
      metadata: { name: 'j' },
      spec: {
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } },
        backoffLimit: 1,
      },
    });
    const ordered = inGoMemberOrder(scheme, job);
    assert.deepEqual(keys(at(ordered, 'spec')), ['backoffLimit', 'template']);
    assert.deepEqual(keys(at(ordered, 'spec', 'template', 'spec')), ['containers', 'restartPolicy']);
  });

  it('returns an object already in order as it is, shares unchanged parts and leaves its input alone', () => {
    assert.equal(inGoMemberOrder(scheme, pod), pod);
    const before = JSON.stringify(sortedPod);
    const again = inGoMemberOrder(scheme, sortedPod);
    assert.equal(JSON.stringify(sortedPod), before);
    assert.equal(JSON.stringify(again), JSON.stringify(pod));
    const oneChange = { ...pod, spec: { ...(pod['spec'] as Obj), restartPolicy: 'Never' } };
    const partly = inGoMemberOrder(scheme, { ...oneChange, status: at(sortedPod, 'status') });
    assert.equal(at(partly, 'spec'), oneChange.spec);
  });

  it('gives a kind the scheme does not know kube’s top-level order and leaves the rest', () => {
    const widget = {
      metadata: { uid: 'u', name: 'w' },
      apiVersion: 'example.com/v1',
      spec: { b: 1, a: 2 },
      kind: 'W',
    };
    const ordered = inGoMemberOrder(scheme, widget);
    assert.deepEqual(keys(ordered), ['kind', 'apiVersion', 'metadata', 'spec']);
    assert.deepEqual(keys(at(ordered, 'metadata')), ['name', 'uid']);
    assert.deepEqual(keys(at(ordered, 'spec')), ['b', 'a']);
  });

  it('keeps each scheme’s plans apart', () => {
    const other = builtinScheme();
    assert.equal(JSON.stringify(inGoMemberOrder(other, sortedPod)), JSON.stringify(pod));
  });
});
