// SetDefaults_ResourceList over HTTP: kube 1.33 rounds every quantity of a v1.ResourceList up to milli
// scale wherever its generated defaulters reach one (pod specs and their templates, LimitRange,
// ResourceQuota, node status, PersistentVolume and claim, a StatefulSet's claim templates, a
// VolumeAttachment's inline spec), and nowhere else: node.k8s.io/v1 registers no defaulters, so a
// RuntimeClass keeps its overhead as sent, and a CSIStorageCapacity's capacity is a bare Quantity.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { at, DefaultsClient } from './support/defaults-calls.js';

type Json = Record<string, unknown>;

let server: CapstanServer;
const client = new DefaultsClient(() => server);
const manager = 'test';
const create = (path: string, body: Json): Promise<Json> => client.create(path, body, manager);

const core = '/api/v1';
const ns = `${core}/namespaces/default`;

describe('SetDefaults_ResourceList (quantities of a ResourceList rounded up to milli scale)', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  it('LimitRange: every list of an item, after the defaults copied from max', async () => {
    const lr = await create(`${ns}/limitranges`, {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', max: { cpu: '100u' }, min: { cpu: '1n' } }] },
    });
    assert.deepEqual(at(lr, 'spec', 'limits', 0), {
      type: 'Container',
      max: { cpu: '1m' },
      min: { cpu: '1m' },
      default: { cpu: '1m' },
      defaultRequest: { cpu: '1m' },
    });
  });

  it('ResourceQuota: spec.hard, and status.hard and used through /status', async () => {
    const quota = await create(`${ns}/resourcequotas`, {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec: { hard: { 'requests.cpu': '1500001u', pods: '10' } },
    });
    assert.deepEqual(at(quota, 'spec', 'hard'), { 'requests.cpu': '1501m', pods: '10' });
    // The quota controller may have written the status already: a merge patch needs no version.
    const status = await client.patch(
      `${ns}/resourcequotas/q/status`,
      { status: { hard: { 'requests.cpu': '2000001u' }, used: { 'requests.cpu': '1n' } } },
      'application/merge-patch+json',
      manager,
    );
    assert.equal((at(status, 'status', 'hard') as Json)['requests.cpu'], '2001m');
    assert.equal((at(status, 'status', 'used') as Json)['requests.cpu'], '1m');
  });

  it('Node: capacity, and the allocatable copied from it', async () => {
    const node = await create(`${core}/nodes`, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      status: { capacity: { cpu: '100u', memory: '1Gi' } },
    });
    assert.deepEqual(at(node, 'status', 'capacity'), { cpu: '1m', memory: '1Gi' });
    assert.deepEqual(at(node, 'status', 'allocatable'), { cpu: '1m', memory: '1Gi' });
  });

  it('PersistentVolume capacity and PersistentVolumeClaim requests', async () => {
    const pv = await create(`${core}/persistentvolumes`, {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv1' },
      spec: { capacity: { storage: '1n' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
    });
    assert.deepEqual(at(pv, 'spec', 'capacity'), { storage: '1m' });
    assert.equal(at(pv, 'spec', 'persistentVolumeReclaimPolicy'), 'Retain');
    assert.equal(at(pv, 'spec', 'volumeMode'), 'Filesystem');
    const pvc = await create(`${ns}/persistentvolumeclaims`, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c1' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1n' } } },
    });
    assert.deepEqual(at(pvc, 'spec', 'resources', 'requests'), { storage: '1m' });
  });

  it("pod templates of workloads, and a StatefulSet's claim templates", async () => {
    const template = {
      metadata: { labels: { app: 'w' } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.25', resources: { limits: { cpu: '100u' } } }] },
    };
    const d = await create('/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { app: 'w' } }, template },
    });
    assert.deepEqual(at(d, 'spec', 'template', 'spec', 'containers', 0, 'resources', 'limits'), {
      cpu: '1m',
    });
    const sts = await create('/apis/apps/v1/namespaces/default/statefulsets', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's' },
      spec: {
        selector: { matchLabels: { app: 'w' } },
        template,
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1n' } } },
          },
        ],
      },
    });
    assert.deepEqual(at(sts, 'spec', 'volumeClaimTemplates', 0, 'spec', 'resources', 'requests'), {
      storage: '1m',
    });
  });

  it("VolumeAttachment: the inline spec's capacity, without SetDefaults_PersistentVolume", async () => {
    const va = await create('/apis/storage.k8s.io/v1/volumeattachments', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va' },
      spec: {
        attacher: 'csi.example.com',
        nodeName: 'n1',
        source: {
          inlineVolumeSpec: {
            capacity: { storage: '1n' },
            accessModes: ['ReadWriteOnce'],
            hostPath: { path: '/data' },
          },
        },
      },
    });
    // The inline spec's sources still get their own defaults (SetDefaults_HostPathVolumeSource).
    assert.deepEqual(at(va, 'spec', 'source', 'inlineVolumeSpec'), {
      capacity: { storage: '1m' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/data', type: '' },
    });
  });

  it("not a RuntimeClass's overhead (nor a pod's copy of it) nor a CSIStorageCapacity: kube defaults neither", async () => {
    const rc = await create('/apis/node.k8s.io/v1/runtimeclasses', {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'rc' },
      handler: 'h',
      overhead: { podFixed: { cpu: '100u' } },
    });
    assert.deepEqual(at(rc, 'overhead', 'podFixed'), { cpu: '100u' });
    // A pod of that class takes the overhead as the class has it (RuntimeClass admission runs after
    // the decoder's defaults, and checks the pod's overhead against the class's).
    const pod = await create(`${ns}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'with-overhead' },
      spec: { runtimeClassName: 'rc', containers: [{ name: 'c', image: 'nginx:1.25' }] },
    });
    assert.deepEqual(at(pod, 'spec', 'overhead'), { cpu: '100u' });
    const capacity = await create('/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: { name: 'cap' },
      storageClassName: 'sc',
      capacity: '100u',
    });
    assert.equal(capacity['capacity'], '100u');
  });
});
