// apiregistration.k8s.io/v1 APIServices in one in-process server: kube-aggregator's validation
// messages, the local APIServices registered for every built-in group version (and a CRD's), and
// an APIService whose Service is missing reported unavailable with kube's reason, its group 503.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { waitFor } from './support/wait-for.js';

interface APIServiceOut {
  metadata: { name: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

const path = '/apis/apiregistration.k8s.io/v1/apiservices';
const available = (
  a: APIServiceOut | undefined,
): { status: string; reason?: string; message?: string } | undefined =>
  a?.status?.conditions?.find((c) => c.type === 'Available');

describe('apiservices', () => {
  let server: InProcessServer;
  let dir: string;
  const list = async (): Promise<APIServiceOut[]> =>
    (await server.json<{ items: APIServiceOut[] }>(path)).items;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-apiservices-'));
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
      o.storage.dataDir = dir;
    });
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses an invalid APIService with kube-aggregator’s messages', async () => {
    const r = await server.request(path, {
      method: 'POST',
      body: {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: 'v1.wrong' },
        spec: {
          group: 'Bad_Group',
          version: '1v',
          groupPriorityMinimum: 0,
          versionPriority: 1001,
          service: { namespace: 'default', name: 'x' },
          caBundle: 'YWJj',
          insecureSkipTLSVerify: true,
        },
      },
    });
    assert.equal(r.status, 422);
    const status = JSON.parse(r.body) as { reason: string; message: string };
    assert.equal(status.reason, 'Invalid');
    assert.equal(
      status.message,
      'APIService.apiregistration.k8s.io "v1.wrong" is invalid: [' +
        'metadata.name: Invalid value: "v1.wrong": must be `spec.version+"."+spec.group`: "1v.Bad_Group", ' +
        "spec.group: Invalid value: \"Bad_Group\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), " +
        "spec.version: Invalid value: \"1v\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), " +
        'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000, ' +
        'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000, ' +
        'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present]',
    );
    const local = await server.request(path, {
      method: 'POST',
      body: {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: 'v2.' },
        spec: { version: 'v2', groupPriorityMinimum: 1, versionPriority: 1, caBundle: 'YWJj' },
      },
    });
    assert.equal(local.status, 422);
    assert.equal(
      (JSON.parse(local.body) as { message: string }).message,
      'APIService.apiregistration.k8s.io "v2." is invalid: [spec.group: Required value: only v1 may have an empty group and it better be legacy kube, ' +
        'spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle]',
    );
  });

  it('registers a local APIService, Available, for every built-in group version', async () => {
    const wanted = [
      'v1.',
      'v1.apps',
      'v1.batch',
      'v2.autoscaling',
      'v1.apiregistration.k8s.io',
      'v1.apiextensions.k8s.io',
    ];
    const items = await waitFor('the local APIServices to be Available', list, (items) =>
      wanted.every((n) => available(items.find((a) => a.metadata.name === n))?.status === 'True'),
    );
    const apps = items.find((a) => a.metadata.name === 'v1.apps');
    // service is a nil pointer tagged omitempty: left out, as kube writes it.
    assert.deepEqual(apps?.spec, {
      group: 'apps',
      version: 'v1',
      groupPriorityMinimum: 17800,
      versionPriority: 15,
    });
    assert.deepEqual(apps.metadata.labels, { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' });
    assert.deepEqual(available(apps), {
      type: 'Available',
      status: 'True',
      lastTransitionTime: (apps.status?.conditions?.[0] as { lastTransitionTime?: string })
        .lastTransitionTime,
      reason: 'Local',
      message: 'Local APIServices are always available',
    });
    assert.deepEqual(items.find((a) => a.metadata.name === 'v1.')?.spec, {
      version: 'v1',
      groupPriorityMinimum: 18000,
      versionPriority: 1,
    });
    // A deleted one is registered again.
    assert.equal((await server.request(`${path}/v1.batch`, { method: 'DELETE' })).status, 200);
    await waitFor(
      'v1.batch again',
      list,
      (items) => available(items.find((a) => a.metadata.name === 'v1.batch'))?.status === 'True',
    );
  });

  it('registers a CRD’s served versions and removes them with it', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.agg.example.com' },
      spec: {
        group: 'agg.example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
          { name: 'v1beta1', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    };
    assert.equal(
      (
        await server.request('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
          method: 'POST',
          body: crd,
        })
      ).status,
      201,
    );
    const items = await waitFor('v1.agg.example.com', list, (items) =>
      items.some((a) => a.metadata.name === 'v1.agg.example.com' && available(a)?.status === 'True'),
    );
    const registered = items.find((a) => a.metadata.name === 'v1.agg.example.com');
    assert.equal(registered?.spec['groupPriorityMinimum'], 1000);
    assert.equal(registered.spec['versionPriority'], 100);
    assert.equal(registered.metadata.labels?.['kube-aggregator.kubernetes.io/automanaged'], 'true');
    assert.ok(!items.some((a) => a.metadata.name === 'v1beta1.agg.example.com'));
    await server.request('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.agg.example.com', {
      method: 'DELETE',
    });
    await waitFor(
      'v1.agg.example.com to go',
      list,
      (items) => !items.some((a) => a.metadata.name === 'v1.agg.example.com'),
    );
  });

  it('reports a missing Service as ServiceNotFound and answers its group 503', async () => {
    const created = await server.request(path, {
      method: 'POST',
      body: {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: 'v1alpha1.missing.example.com' },
        spec: {
          group: 'missing.example.com',
          version: 'v1alpha1',
          groupPriorityMinimum: 100,
          versionPriority: 10,
          service: { namespace: 'default', name: 'nowhere' },
          insecureSkipTLSVerify: true,
        },
      },
    });
    assert.equal(created.status, 201, created.body);
    assert.equal((JSON.parse(created.body) as APIServiceOut).spec['service'] !== null, true);
    const items = await waitFor(
      'ServiceNotFound',
      list,
      (items) =>
        available(items.find((a) => a.metadata.name === 'v1alpha1.missing.example.com'))?.reason ===
        'ServiceNotFound',
    );
    const condition = available(items.find((a) => a.metadata.name === 'v1alpha1.missing.example.com'));
    assert.equal(condition?.status, 'False');
    assert.equal(condition.message, 'service/nowhere in "default" is not present');
    const r = await server.request('/apis/missing.example.com/v1alpha1/things');
    assert.equal(r.status, 503);
    assert.equal(r.body, 'service unavailable\n');
    const groups = await server.json<{ groups: { name: string }[] }>('/apis');
    assert.ok(groups.groups.some((g) => g.name === 'missing.example.com'));
  });
});
