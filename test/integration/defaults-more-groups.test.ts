// The v1 defaulters of networking.k8s.io, storage.k8s.io, discovery.k8s.io and
// apiregistration.k8s.io (docs/defaults-checklist.md), over HTTP so that schema and code defaults
// both apply, each recorded in managedFields as the creator's own field (kube defaults a body as it
// decodes it, before the field manager). And the groups kube 1.33 defaults nothing in (policy,
// node.k8s.io, certificates.k8s.io, coordination.k8s.io, events.k8s.io, and networking's Ingress):
// what was sent is what is stored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newTestCSR } from '../../src/registry/certificates/certificatesigningrequest/testing/csr-pem.js';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { assertOwnsPath, DefaultsClient, owned } from './support/defaults-calls.js';
import { RawHttp } from './support/raw-http.js';

type Json = Record<string, unknown>;

let server: CapstanServer;
const http = new RawHttp(() => server);

const manager = 'creator';

const client = new DefaultsClient(() => server);
const create = (path: string, body: Json): Promise<Json> => client.create(path, body, manager);

/** Asserts that the creator's managedFields entry holds the field at `path` (FieldsV1 keys). */
const assertOwned = (obj: Json, path: readonly string[]): void => {
  assertOwnsPath(owned(obj, manager), path);
};

const networking = '/apis/networking.k8s.io/v1';
const storage = '/apis/storage.k8s.io/v1';

describe('defaults of the other served groups (kube 1.33)', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    http.close();
    await server.stop();
  });

  it('SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort', async () => {
    const policies = `${networking}/namespaces/default/networkpolicies`;
    const np = (name: string, spec: Json): Json => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name },
      spec,
    });
    const ingressOnly = await create(policies, np('in', { ingress: [{ ports: [{ port: 80 }] }] }));
    assert.deepEqual(ingressOnly['spec'], {
      podSelector: {},
      ingress: [{ ports: [{ protocol: 'TCP', port: 80 }] }],
      policyTypes: ['Ingress'],
    });
    assertOwned(ingressOnly, ['f:spec', 'f:policyTypes']);
    const both = await create(policies, np('both', { egress: [{ ports: [{ port: 53 }] }] }));
    assert.deepEqual((both['spec'] as Json)['policyTypes'], ['Ingress', 'Egress']);
    assert.deepEqual((both['spec'] as Json)['egress'], [{ ports: [{ protocol: 'TCP', port: 53 }] }]);
    // Only an empty list is defaulted: a policy for egress alone stays one.
    const egressOnly = await create(policies, np('out', { policyTypes: ['Egress'] }));
    assert.deepEqual((egressOnly['spec'] as Json)['policyTypes'], ['Egress']);
  });

  it('SetDefaults_IngressClass: parameters without a scope are cluster-scoped', async () => {
    const classes = `${networking}/ingressclasses`;
    const ic = (name: string, spec: Json): Json => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name },
      spec,
    });
    const withParams = await create(
      classes,
      ic('p', { controller: 'example.com/c', parameters: { kind: 'Params', name: 'n' } }),
    );
    assert.deepEqual((withParams['spec'] as Json)['parameters'], {
      kind: 'Params',
      name: 'n',
      scope: 'Cluster',
    });
    assertOwned(withParams, ['f:spec', 'f:parameters', 'f:scope']);
    const bare = await create(classes, ic('bare', { controller: 'example.com/c' }));
    assert.deepEqual(bare['spec'], { controller: 'example.com/c' });
  });

  it('Ingress: no v1 defaulter, so a path without a pathType is refused, not defaulted', async () => {
    const { status, text } = await http.call(`${networking}/namespaces/default/ingresses`, {
      method: 'POST',
      body: {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: 'i' },
        spec: {
          rules: [
            { http: { paths: [{ path: '/', backend: { service: { name: 's', port: { number: 80 } } } }] } },
          ],
        },
      },
    });
    assert.equal(status, 422, text);
    assert.match(
      text,
      /spec\.rules\[0\]\.http\.paths\[0\]\.pathType: Required value: pathType must be specified/,
    );
  });

  it('SetDefaults_StorageClass: reclaimPolicy Delete, volumeBindingMode Immediate', async () => {
    const sc = await create(`${storage}/storageclasses`, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'sc' },
      provisioner: 'example.com/p',
    });
    assert.equal(sc['reclaimPolicy'], 'Delete');
    assert.equal(sc['volumeBindingMode'], 'Immediate');
    assertOwned(sc, ['f:reclaimPolicy']);
    assertOwned(sc, ['f:volumeBindingMode']);
  });

  it('SetDefaults_CSIDriver: every optional field of the spec', async () => {
    const driver = await create(`${storage}/csidrivers`, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: 'csi.example.com' },
      spec: {},
    });
    assert.deepEqual(driver['spec'], {
      attachRequired: true,
      podInfoOnMount: false,
      volumeLifecycleModes: ['Persistent'],
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      requiresRepublish: false,
      seLinuxMount: false,
    });
    for (const field of ['f:attachRequired', 'f:fsGroupPolicy', 'f:seLinuxMount', 'f:volumeLifecycleModes'])
      assertOwned(driver, ['f:spec', field]);
  });

  it('SetDefaults_EndpointPort: name "" and protocol TCP', async () => {
    const slice = await create('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'es' },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'] }],
      ports: [{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }],
    });
    assert.deepEqual(slice['ports'], [
      { name: '', protocol: 'TCP', port: 80 },
      { name: 'dns', protocol: 'UDP', port: 53 },
    ]);
    assertOwned(slice, ['f:ports']);
  });

  it('SetDefaults_ServiceReference: an APIService service port is 443', async () => {
    const apiService = await create('/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.example.com' },
      spec: {
        group: 'example.com',
        version: 'v1',
        groupPriorityMinimum: 100,
        versionPriority: 10,
        service: { namespace: 'default', name: 'api' },
      },
    });
    assert.deepEqual((apiService['spec'] as Json)['service'], {
      namespace: 'default',
      name: 'api',
      port: 443,
    });
    assertOwned(apiService, ['f:spec', 'f:service', 'f:port']);
  });

  it('policy, node.k8s.io, certificates.k8s.io, coordination.k8s.io, events.k8s.io: nothing defaulted', async () => {
    const pdb = await create('/apis/policy/v1/namespaces/default/poddisruptionbudgets', {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'pdb' },
      spec: { minAvailable: 1 },
    });
    // No unhealthyPodEvictionPolicy, no selector.
    assert.deepEqual(pdb['spec'], { minAvailable: 1 });
    const rc = await create('/apis/node.k8s.io/v1/runtimeclasses', {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'rc' },
      handler: 'runc',
    });
    assert.equal(rc['overhead'], undefined);
    assert.equal(rc['scheduling'], undefined);
    const lease = await create('/apis/coordination.k8s.io/v1/namespaces/default/leases', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { holderIdentity: 'me' },
    });
    // No strategy (CoordinatedLeaderElection's field has no default).
    assert.deepEqual(lease['spec'], { holderIdentity: 'me' });
    // certificates.k8s.io/v1 has no defaulters (v1beta1's usages default is gone): usages are required.
    const { status, text } = await http.call('/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      method: 'POST',
      body: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'csr' },
        spec: { request: newTestCSR('csr').request, signerName: 'example.com/signer' },
      },
    });
    assert.equal(status, 422, text);
    assert.match(text, /spec\.usages: Required value/);
    const event = await create('/apis/events.k8s.io/v1/namespaces/default/events', {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e' },
      eventTime: '2026-01-01T00:00:00.000000Z',
      reportingController: 'example.com/c',
      reportingInstance: 'i',
      action: 'Act',
      reason: 'Why',
      type: 'Normal',
      regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
    });
    assert.equal(event['note'], undefined);
    assert.equal(event['series'], undefined);
  });
});
