// A create's managedFields over HTTP, as kube 1.33 records them: its create handler compares the new
// object with the Go zero object of the kind, so a struct held by value (spec, a template, its
// metadata, strategy) and a nil list or pointer (containers, selector) are there already: no "."
// for them, while a new container records its empty structs (resources) and a new pod spec the
// empty securityContext defaulting set. Expected fieldsV1 as real clusters show them for
// `kubectl run nginx --image=nginx` and `kubectl create deployment nginx --image=nginx`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { jsonCall, type JSONReply } from './support/json-call.js';

type Reply = JSONReply<
  Record<string, unknown> & {
    metadata?: { managedFields?: { manager?: string; operation?: string; fieldsV1?: unknown }[] };
  }
>;

let server: CapstanServer;

const call = (method: string, path: string, body?: unknown): Promise<Reply> =>
  jsonCall(server, { method, path, body });

const fieldsOf = (r: Reply, manager: string): unknown =>
  r.body.metadata?.managedFields?.find((e) => e.manager === manager)?.fieldsV1;

const container = {
  'k:{"name":"nginx"}': {
    '.': {},
    'f:image': {},
    'f:imagePullPolicy': {},
    'f:name': {},
    'f:resources': {},
    'f:terminationMessagePath': {},
    'f:terminationMessagePolicy': {},
  },
};
const templateSpec = {
  'f:containers': container,
  'f:dnsPolicy': {},
  'f:restartPolicy': {},
  'f:schedulerName': {},
  'f:securityContext': {},
  'f:terminationGracePeriodSeconds': {},
};

describe('a create records its fields against the Go zero object of the kind', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  it('a Pod as kubectl run sends it', async () => {
    const created = await call('POST', '/api/v1/namespaces/default/pods?fieldManager=kubectl-run', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'nginx', labels: { run: 'nginx' } },
      spec: {
        containers: [{ name: 'nginx', image: 'nginx', resources: {} }],
        restartPolicy: 'Always',
        dnsPolicy: 'ClusterFirst',
      },
      status: {},
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(fieldsOf(created, 'kubectl-run'), {
      'f:metadata': { 'f:labels': { '.': {}, 'f:run': {} } },
      'f:spec': { ...templateSpec, 'f:enableServiceLinks': {} },
    });
  });

  it('a Deployment as kubectl create deployment sends it', async () => {
    const created = await call(
      'POST',
      '/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'nginx', labels: { app: 'nginx' } },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'nginx' } },
          template: {
            metadata: { labels: { app: 'nginx' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] },
          },
          strategy: {},
        },
        status: {},
      },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(fieldsOf(created, 'kubectl-create'), {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:progressDeadlineSeconds': {},
        'f:replicas': {},
        'f:revisionHistoryLimit': {},
        'f:selector': {},
        'f:strategy': {
          'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} },
          'f:type': {},
        },
        'f:template': {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': templateSpec,
        },
      },
    });
  });

  it('a merge patch after it records what it adds, "." for a map it adds', async () => {
    const patched = await jsonCall<Reply['body']>(server, {
      method: 'PATCH',
      path: '/apis/apps/v1/namespaces/default/deployments/nginx?fieldManager=annotator',
      body: { spec: { template: { metadata: { annotations: { a: 'b' } } } } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(fieldsOf(patched, 'annotator'), {
      'f:spec': { 'f:template': { 'f:metadata': { 'f:annotations': { '.': {}, 'f:a': {} } } } },
    });
  });

  // kube's schema gives runtime.RawExtension deduced contents (structured-merge-diff's
  // __untyped_deduced_): a map's keys are recorded, each with "." when it holds more, a list as a
  // whole (atomic); `data` itself is a field of the struct, so no "." for it.
  it("a ControllerRevision's data, recorded key by key with lists atomic", async () => {
    const created = await call(
      'POST',
      '/apis/apps/v1/namespaces/default/controllerrevisions?fieldManager=m',
      {
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: { name: 'revision' },
        revision: 1,
        data: { spec: { template: { x: 1 } }, list: [{ a: 1 }, 2], s: 'str' },
      },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(fieldsOf(created, 'm'), {
      'f:data': {
        'f:list': {},
        'f:s': {},
        'f:spec': { '.': {}, 'f:template': { '.': {}, 'f:x': {} } },
      },
      'f:revision': {},
    });
  });
});
