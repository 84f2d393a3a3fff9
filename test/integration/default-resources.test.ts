// The resources kube-apiserver 1.33 serves with its default flags (DefaultAPIResourceConfigSource:
// every stable group version, no beta or alpha one; no feature gate adds a resource by default),
// read from discovery; and the default ServiceCIDR it keeps for --service-cluster-ip-range.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { waitFor } from './support/wait-for.js';

/** `kubectl api-resources` of a kube-apiserver 1.33 started with default flags, by group version. */
const kube133: Readonly<Record<string, readonly string[]>> = {
  v1: [
    'bindings',
    'componentstatuses',
    'configmaps',
    'endpoints',
    'events',
    'limitranges',
    'namespaces',
    'nodes',
    'persistentvolumeclaims',
    'persistentvolumes',
    'pods',
    'podtemplates',
    'replicationcontrollers',
    'resourcequotas',
    'secrets',
    'serviceaccounts',
    'services',
  ],
  'admissionregistration.k8s.io/v1': [
    'mutatingwebhookconfigurations',
    'validatingadmissionpolicies',
    'validatingadmissionpolicybindings',
    'validatingwebhookconfigurations',
  ],
  'apiextensions.k8s.io/v1': ['customresourcedefinitions'],
  'apiregistration.k8s.io/v1': ['apiservices'],
  'apps/v1': ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets'],
  'authentication.k8s.io/v1': ['selfsubjectreviews', 'tokenreviews'],
  'authorization.k8s.io/v1': [
    'localsubjectaccessreviews',
    'selfsubjectaccessreviews',
    'selfsubjectrulesreviews',
    'subjectaccessreviews',
  ],
  'autoscaling/v1': ['horizontalpodautoscalers'],
  'autoscaling/v2': ['horizontalpodautoscalers'],
  'batch/v1': ['cronjobs', 'jobs'],
  'certificates.k8s.io/v1': ['certificatesigningrequests'],
  'coordination.k8s.io/v1': ['leases'],
  'discovery.k8s.io/v1': ['endpointslices'],
  'events.k8s.io/v1': ['events'],
  'flowcontrol.apiserver.k8s.io/v1': ['flowschemas', 'prioritylevelconfigurations'],
  'networking.k8s.io/v1': ['ingressclasses', 'ingresses', 'ipaddresses', 'networkpolicies', 'servicecidrs'],
  'node.k8s.io/v1': ['runtimeclasses'],
  'policy/v1': ['poddisruptionbudgets'],
  'rbac.authorization.k8s.io/v1': ['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles'],
  'scheduling.k8s.io/v1': ['priorityclasses'],
  'storage.k8s.io/v1': [
    'csidrivers',
    'csinodes',
    'csistoragecapacities',
    'storageclasses',
    'volumeattachments',
  ],
};

/** What Capstan does not serve yet, each a README "not yet" row; the test fails when one appears. */
const knownMissing: Readonly<Record<string, readonly string[]>> = {};

interface APIResource {
  name: string;
  namespaced: boolean;
  shortNames?: string[];
}

describe('the resources kube-apiserver 1.33 serves by default', () => {
  let server: InProcessServer;
  const served = new Map<string, APIResource[]>();

  before(async () => {
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
      o.serviceClusterIPRange = '10.0.0.0/24,fd00:10::/112';
    });
    const groups = await server.json<{
      groups: { preferredVersion: { groupVersion: string }; versions: { groupVersion: string }[] }[];
    }>('/apis');
    const gvs = ['v1', ...groups.groups.flatMap((g) => g.versions.map((v) => v.groupVersion))];
    for (const gv of gvs) {
      const list = await server.json<{ resources: APIResource[] }>(gv === 'v1' ? '/api/v1' : `/apis/${gv}`);
      served.set(
        gv,
        list.resources.filter((r) => !r.name.includes('/')),
      );
    }
  });
  after(() => server.stop());

  it('serves exactly kube 1.33’s group versions and resources', () => {
    const got = Object.fromEntries([...served].map(([gv, rs]) => [gv, rs.map((r) => r.name).sort()]));
    const want = Object.entries(kube133).map(([gv, rs]) => [
      gv,
      rs.filter((r) => !(knownMissing[gv] ?? []).includes(r)).sort(),
    ]);
    assert.deepEqual(got, Object.fromEntries(want));
  });

  it('describes the 1.33 additions as kube does', () => {
    const find = (gv: string, name: string) => served.get(gv)?.find((r) => r.name === name);
    assert.deepEqual(find('networking.k8s.io/v1', 'ipaddresses')?.shortNames, ['ip']);
    assert.equal(find('networking.k8s.io/v1', 'servicecidrs')?.namespaced, false);
    assert.equal(find('storage.k8s.io/v1', 'csistoragecapacities')?.namespaced, true);
  });

  it('binds a pod through the legacy `bindings` resource', async () => {
    const bindings = served.get('v1')?.find((r) => r.name === 'bindings') as APIResource & {
      kind: string;
      verbs: string[];
    };
    assert.deepEqual([bindings.kind, bindings.verbs, bindings.namespaced], ['Binding', ['create'], true]);
    await server.json('/api/v1/namespaces/default/pods', {
      method: 'POST',
      body: { metadata: { name: 'bound' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    });
    const res = await server.request('/api/v1/namespaces/default/bindings', {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound' }, target: { name: 'node-1' } },
    });
    assert.equal(res.status, 201, res.body);
    const pod = await server.json<{ spec: { nodeName?: string } }>('/api/v1/namespaces/default/pods/bound');
    assert.equal(pod.spec.nodeName, 'node-1');
  });

  it('keeps the default ServiceCIDR `kubernetes` for --service-cluster-ip-range, Ready', async () => {
    const cidr = await waitFor(
      'the default ServiceCIDR to be Ready',
      () => server.request('/apis/networking.k8s.io/v1/servicecidrs/kubernetes'),
      (res) => res.status === 200 && res.body.includes('"Ready"'),
    );
    const obj = JSON.parse(cidr.body) as {
      spec: { cidrs: string[] };
      status: { conditions: Record<string, unknown>[] };
    };
    assert.deepEqual(obj.spec.cidrs, ['10.0.0.0/24', 'fd00:10::/112']);
    const ready = obj.status.conditions.find((c) => c['type'] === 'Ready');
    assert.equal(ready?.['status'], 'True');
    assert.equal(ready['message'], 'Kubernetes default Service CIDR is ready');
  });
});
