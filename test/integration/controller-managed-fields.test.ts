// managedFields of what the server writes itself: the controllers as kube-controller-manager, the
// simulated kubelet as kubelet (pod and node status), the bootstrap as kube-apiserver; and a
// server-side apply that takes a field a controller owns conflicts with it, as in kube.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { waitFor } from './support/wait-for.js';

interface Entry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  subresource?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
}
interface Obj {
  metadata: { name: string; managedFields?: Entry[]; ownerReferences?: { uid: string }[] };
  status?: { phase?: string; readyReplicas?: number };
}
interface List {
  items: Obj[];
}

let server: InProcessServer;
let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capstan-managed-'));
  server = await startInProcess((o) => {
    o.storage.backend = 'memory';
    o.storage.dataDir = dir;
    o.simulate = true;
    o.simulateNodes = 1;
  });
});
after(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const entry = (o: Obj, manager: string, subresource = '') =>
  o.metadata.managedFields?.find((e) => e.manager === manager && (e.subresource ?? '') === subresource);

/** The entry, checked to be an Update of `apiVersion` with a FieldsV1 set, and its fields. */
function updateEntry(o: Obj, at: { manager: string; apiVersion: string; subresource?: string }): Entry {
  const e = entry(o, at.manager, at.subresource);
  assert.ok(e, `${o.metadata.name}: no ${at.manager} entry in ${JSON.stringify(o.metadata.managedFields)}`);
  assert.equal(e.operation, 'Update');
  assert.equal(e.apiVersion, at.apiVersion);
  assert.equal(e.fieldsType, 'FieldsV1');
  assert.match(e.time ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  return e;
}

const ns = '/apis/apps/v1/namespaces/default';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    },
  },
};

describe('managedFields of the server’s own writes', () => {
  let replicaSet: Obj;
  before(async () => {
    await server.json(`${ns}/deployments`, { method: 'POST', body: deployment });
    const sets = await waitFor(
      'a ReplicaSet with two ready pods',
      () => server.json<List>(`${ns}/replicasets`),
      (l) => l.items.length === 1 && l.items[0]?.status?.readyReplicas === 2,
    );
    replicaSet = sets.items[0] as Obj;
  });

  it('records the Deployment controller’s ReplicaSet as kube-controller-manager, spec and status', () => {
    const main = updateEntry(replicaSet, { manager: 'kube-controller-manager', apiVersion: 'apps/v1' });
    const fields = main.fieldsV1 ?? {};
    assert.ok('f:ownerReferences' in (fields['f:metadata'] as object));
    const spec = fields['f:spec'] as Record<string, unknown>;
    for (const f of ['f:replicas', 'f:selector', 'f:template']) assert.ok(f in spec, f);
    assert.equal(fields['f:status'], undefined);
    const status = updateEntry(replicaSet, {
      manager: 'kube-controller-manager',
      apiVersion: 'apps/v1',
      subresource: 'status',
    });
    assert.ok('f:readyReplicas' in (status.fieldsV1?.['f:status'] as object));
  });

  it('records the ReplicaSet’s pods as kube-controller-manager, their status as kubelet', async () => {
    const pods = await waitFor(
      'two running pods with their status written',
      () => server.json<List>('/api/v1/namespaces/default/pods'),
      (l) =>
        l.items.length === 2 &&
        l.items.every((p) => p.status?.phase === 'Running' && entry(p, 'kubelet', 'status') !== undefined),
    );
    for (const pod of pods.items) {
      const created = updateEntry(pod, { manager: 'kube-controller-manager', apiVersion: 'v1' });
      const meta = created.fieldsV1?.['f:metadata'] as Record<string, unknown>;
      for (const f of ['f:generateName', 'f:labels', 'f:ownerReferences']) assert.ok(f in meta, f);
      assert.ok('f:containers' in (created.fieldsV1?.['f:spec'] as object));
      assert.equal(created.fieldsV1?.['f:status'], undefined);
      const status = updateEntry(pod, { manager: 'kubelet', apiVersion: 'v1', subresource: 'status' });
      const fields = status.fieldsV1?.['f:status'] as Record<string, unknown>;
      for (const f of ['f:conditions', 'f:containerStatuses', 'f:phase']) assert.ok(f in fields, f);
      assert.equal(status.fieldsV1?.['f:spec'], undefined);
    }
  });

  it('records the simulated node’s registration as kubelet and a system namespace as kube-apiserver', async () => {
    const node = await server.json<Obj>('/api/v1/nodes/sim-node-0');
    const registered = updateEntry(node, { manager: 'kubelet', apiVersion: 'v1' });
    assert.ok('f:labels' in (registered.fieldsV1?.['f:metadata'] as object));
    const namespace = await server.json<Obj>('/api/v1/namespaces/kube-system');
    updateEntry(namespace, { manager: 'kube-apiserver', apiVersion: 'v1' });
  });

  it('records each component’s events under its own manager: kube-scheduler, kubelet, kube-controller-manager', async () => {
    const events = await waitFor(
      'Scheduled, Started and SuccessfulCreate events',
      () => server.json<{ items: (Obj & { reason?: string })[] }>('/api/v1/namespaces/default/events'),
      (l) => ['Scheduled', 'Started', 'SuccessfulCreate'].every((r) => l.items.some((e) => e.reason === r)),
    );
    const managerOf = (reason: string): string[] => [
      ...new Set(
        events.items
          .filter((e) => e.reason === reason)
          .flatMap((e) => (e.metadata.managedFields ?? []).map((m) => m.manager ?? '')),
      ),
    ];
    assert.deepEqual(managerOf('Scheduled'), ['kube-scheduler']);
    assert.deepEqual(managerOf('Started'), ['kubelet']);
    assert.deepEqual(managerOf('SuccessfulCreate'), ['kube-controller-manager']);
  });

  it('leaves the aggregation controller its own Apply entry on an aggregated role', async () => {
    const eventually = async (): Promise<Obj> => {
      for (let i = 0; ; i++) {
        const view = await server.json<Obj & { rules?: unknown[] }>(
          '/apis/rbac.authorization.k8s.io/v1/clusterroles/view',
        );
        if ((view.rules ?? []).length > 0 || i >= 200) return view;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const view = await eventually();
    const aggregated = entry(view, 'clusterrole-aggregation-controller');
    assert.ok(aggregated, JSON.stringify(view.metadata.managedFields));
    assert.equal(aggregated.operation, 'Apply');
    assert.ok('f:rules' in (aggregated.fieldsV1 ?? {}));
    assert.equal(entry(view, 'kube-controller-manager'), undefined);
  });

  it('answers an apply that takes a controller’s field with a conflict naming kube-controller-manager', async () => {
    const res = await server.request(`${ns}/replicasets/${replicaSet.metadata.name}?fieldManager=tester`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      rawBody: JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: replicaSet.metadata.name },
        spec: { replicas: 5 },
      }),
    });
    assert.equal(res.status, 409, res.body);
    const status = JSON.parse(res.body) as { reason: string; message: string };
    assert.equal(status.reason, 'Conflict');
    assert.equal(
      status.message,
      'Apply failed with 1 conflict: conflict with "kube-controller-manager" using apps/v1: .spec.replicas',
    );
  });
});
