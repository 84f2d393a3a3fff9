// --simulate: the ControllerRevisions of DaemonSets and StatefulSets (made, renumbered on a rollback,
// trimmed to revisionHistoryLimit) and the controller ref manager's adoption and release of pods.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CapstanServer } from '../../src/index.js';
import {
  container,
  names,
  ns,
  startSimulated,
  type List,
  type Obj,
  type SimulatedServer,
} from './support/simulated-server.js';
import { waitFor } from './support/wait-for.js';

interface Revision extends Obj {
  revision: number;
  data: { spec: { template: { $patch?: string; spec: { containers: { image: string }[] } } } };
  metadata: Obj['metadata'] & { ownerReferences?: { kind: string; name: string; controller?: boolean }[] };
}

let server: CapstanServer;
let api: SimulatedServer['api'];
let pods: SimulatedServer['pods'];
before(async () => {
  ({ server, api, pods } = await startSimulated());
});
after(async () => {
  await server.stop();
});

const revisionsOf = async (kind: string, name: string): Promise<Revision[]> =>
  (await api<{ items: Revision[] }>(`/apis/apps/v1${ns}/controllerrevisions`)).items
    .filter((r) => r.metadata.ownerReferences?.some((o) => o.kind === kind && o.name === name) === true)
    .sort((a, b) => a.revision - b.revision);
const images = (rs: readonly Revision[]): string[] =>
  rs.map((r) => `${String(r.revision)}:${r.data.spec.template.spec.containers[0]?.image ?? ''}`);

/** kubectl rollout undo: the revision's data as a strategic merge patch. */
async function strategicPatch(path: string, body: unknown): Promise<void> {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${path}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/strategic-merge-patch+json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.text());
}

function workload(kind: 'DaemonSet' | 'StatefulSet', name: string, image: string) {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, annotations: { 'kubernetes.io/change-cause': `first ${image}` } },
    spec: {
      selector: { matchLabels: { app: name } },
      updateStrategy: { type: 'OnDelete' },
      revisionHistoryLimit: 1,
      ...(kind === 'StatefulSet' ? { serviceName: name, replicas: 1 } : {}),
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ ...container[0], image }] } },
    },
  };
}

for (const [kind, resource] of [
  ['DaemonSet', 'daemonsets'],
  ['StatefulSet', 'statefulsets'],
] as const) {
  describe(`${kind} revisions`, () => {
    const name = kind === 'DaemonSet' ? 'agent' : 'db';
    const path = `/apis/apps/v1${ns}/${resource}/${name}`;
    const setImage = (image: string) =>
      api(path, {
        method: 'PATCH',
        patch: true,
        body: { spec: { template: { spec: { containers: [{ ...container[0], image }] } } } },
      });

    it('records the template as revision 1 and labels the pods with its hash', async () => {
      await api(`/apis/apps/v1${ns}/${resource}`, { body: workload(kind, name, 'v1') });
      const [first] = await waitFor(
        'revision 1',
        () => revisionsOf(kind, name),
        (rs) => rs.length === 1,
      );
      assert.ok(first !== undefined);
      assert.equal(first.revision, 1);
      assert.equal(first.data.spec.template.$patch, 'replace');
      assert.equal(first.metadata.annotations?.['kubernetes.io/change-cause'], 'first v1');
      assert.equal(first.metadata.labels?.['app'], name);
      const hash = first.metadata.labels['controller-revision-hash'] ?? '';
      assert.equal(first.metadata.name, `${name}-${hash}`);
      const running = await waitFor(
        'pods',
        () => pods(`app=${name}`),
        (l) => l.items.length > 0,
      );
      const podLabel = kind === 'DaemonSet' ? hash : first.metadata.name;
      for (const pod of running.items)
        assert.equal(pod.metadata.labels?.['controller-revision-hash'], podLabel);
    });

    it('adds a revision per template and trims unused ones beyond revisionHistoryLimit', async () => {
      for (const image of ['v2', 'v3', 'v4']) {
        await setImage(image);
        await waitFor(
          `revision of ${image}`,
          () => revisionsOf(kind, name),
          (rs) => rs.at(-1)?.data.spec.template.spec.containers[0]?.image === image,
        );
      }
      // v1 is kept (its pods run it, OnDelete), v4 is the update revision, v3 the one history entry.
      const kept = await waitFor(
        'history trimmed',
        () => revisionsOf(kind, name),
        (rs) => rs.length === 3,
      );
      assert.deepEqual(images(kept), ['1:v1', '3:v3', '4:v4']);
    });

    it('renumbers a revision whose template comes back (rollout undo) as the newest', async () => {
      const v3 = (await revisionsOf(kind, name)).find((r) => r.revision === 3);
      assert.ok(v3 !== undefined);
      await strategicPatch(path, v3.data);
      const after = await waitFor(
        'v3 renumbered',
        () => revisionsOf(kind, name),
        (rs) => rs.at(-1)?.revision === 5,
      );
      assert.deepEqual(images(after), ['1:v1', '4:v4', '5:v3']);
      assert.equal(after.at(-1)?.metadata.name, v3.metadata.name);
    });

    it('are deleted with their owner by the garbage collector', async () => {
      await api(path, { method: 'DELETE' });
      await waitFor(
        'revisions collected',
        () => revisionsOf(kind, name),
        (rs) => rs.length === 0,
      );
    });
  });
}

describe('adoption and release (the controller ref manager)', () => {
  const rsPath = `/apis/apps/v1${ns}/replicasets`;
  it('a ReplicaSet adopts a matching orphan pod and releases a pod relabelled out of its selector', async () => {
    await api(`/api/v1${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'stray', labels: { app: 'rs' } },
        spec: { containers: container },
      },
    });
    await api(rsPath, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'rs' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'rs' } },
          template: { metadata: { labels: { app: 'rs' } }, spec: { containers: container } },
        },
      },
    });
    const owned = (l: List) =>
      l.items.filter((p) => (p as Revision).metadata.ownerReferences?.some((o) => o.name === 'rs') === true);
    const both = await waitFor(
      'stray adopted, one pod made',
      () => pods('app=rs'),
      (l) => l.items.length === 2 && owned(l).length === 2,
    );
    assert.ok(both.items.some((p) => p.metadata.name === 'stray'));
    await api(`/api/v1${ns}/pods/stray`, {
      method: 'PATCH',
      patch: true,
      body: { metadata: { labels: { app: 'gone' } } },
    });
    const released = await waitFor(
      'stray released',
      () => api<Revision>(`/api/v1${ns}/pods/stray`),
      (p) => (p.metadata.ownerReferences ?? []).length === 0,
    );
    assert.equal(released.metadata.labels?.['app'], 'gone');
    await waitFor(
      'a replacement made',
      () => pods('app=rs'),
      (l) => owned(l).length === 2,
    );
  });
});

describe('a Deployment adopts and releases ReplicaSets', () => {
  it('adopts a matching orphan ReplicaSet and releases it once relabelled', async () => {
    const template = (image: string) => ({
      metadata: { labels: { app: 'dep' } },
      spec: { containers: [{ ...container[0], image }] },
    });
    await api(`/apis/apps/v1${ns}/replicasets`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'stray-rs', labels: { app: 'dep' } },
        spec: { replicas: 0, selector: { matchLabels: { app: 'dep' } }, template: template('old') },
      },
    });
    await api(`/apis/apps/v1${ns}/deployments`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'dep' },
        spec: { replicas: 1, selector: { matchLabels: { app: 'dep' } }, template: template('new') },
      },
    });
    const ownerOf = (rs: Revision) => rs.metadata.ownerReferences?.find((o) => o.controller === true)?.name;
    await waitFor(
      'stray-rs adopted',
      () => api<Revision>(`/apis/apps/v1${ns}/replicasets/stray-rs`),
      (rs) => ownerOf(rs) === 'dep',
    );
    await api(`/apis/apps/v1${ns}/replicasets/stray-rs`, {
      method: 'PATCH',
      patch: true,
      body: { metadata: { labels: { app: 'elsewhere' } } },
    });
    await waitFor(
      'stray-rs released',
      () => api<Revision>(`/apis/apps/v1${ns}/replicasets/stray-rs`),
      (rs) => (rs.metadata.ownerReferences ?? []).length === 0,
    );
  });
});

describe('a Job adopts matching orphan pods', () => {
  it('counts an orphan pod its manual selector matches as its own', async () => {
    await api(`/api/v1${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'job-stray', labels: { run: 'manual' } },
        spec: { containers: container, restartPolicy: 'Never' },
      },
    });
    await api(`/apis/batch/v1${ns}/jobs`, {
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'manual' },
        spec: {
          manualSelector: true,
          selector: { matchLabels: { run: 'manual' } },
          parallelism: 1,
          completions: 5,
          template: {
            metadata: { labels: { run: 'manual' }, annotations: { 'capstan.dev/stay-pending': 'true' } },
            spec: { containers: container, restartPolicy: 'Never' },
          },
        },
      },
    });
    const stray = await waitFor(
      'job-stray adopted',
      () => api<Revision>(`/api/v1${ns}/pods/job-stray`),
      (p) => p.metadata.ownerReferences?.some((o) => o.kind === 'Job' && o.name === 'manual') === true,
    );
    assert.equal(stray.metadata.ownerReferences?.[0]?.controller, true);
    // parallelism 1 is taken by the adopted pod: the job makes none of its own.
    const job = await waitFor(
      'job counts it',
      () => api(`/apis/batch/v1${ns}/jobs/manual`),
      (j) => j.status?.['active'] === 1,
    );
    assert.equal(job.status?.['active'], 1);
    assert.deepEqual(names(await pods('run=manual')), ['job-stray']);
  });
});

describe('StatefulSet persistentVolumeClaimRetentionPolicy', () => {
  const claim = (name: string) => api<Revision>(`/api/v1${ns}/persistentvolumeclaims/${name}`);
  const claimOwners = async (name: string): Promise<string[] | undefined> => {
    try {
      return ((await claim(name)).metadata.ownerReferences ?? []).map((o) => `${o.kind}/${o.name}`);
    } catch {
      return undefined; // gone
    }
  };

  it('Delete: claims owned by the set, by a pod scaled away, and collected with them', async () => {
    await api(`/apis/apps/v1${ns}/statefulsets`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'keep' },
        spec: {
          serviceName: 'keep',
          replicas: 2,
          podManagementPolicy: 'Parallel',
          persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
          selector: { matchLabels: { app: 'keep' } },
          // Pods that ignore SIGTERM: each stays terminating until the clock passes its grace period.
          template: {
            metadata: { labels: { app: 'keep' }, annotations: { 'capstan.dev/stop-seconds': '3600' } },
            spec: { containers: container },
          },
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
            },
          ],
        },
      },
    });
    for (const name of ['data-keep-0', 'data-keep-1'])
      await waitFor(
        `${name} owned by the set`,
        () => claimOwners(name),
        (o) => o?.join() === 'StatefulSet/keep',
      );
    await api(`/apis/apps/v1${ns}/statefulsets/keep`, {
      method: 'PATCH',
      patch: true,
      body: { spec: { replicas: 1 } },
    });
    await waitFor(
      'data-keep-1 owned by its pod',
      () => claimOwners('data-keep-1'),
      (o) => o?.join() === 'Pod/keep-1',
    );
    await waitFor(
      'keep-1 terminating',
      () => pods('app=keep'),
      (l) => l.items.some((p) => p.metadata.name === 'keep-1' && p.metadata.deletionTimestamp !== undefined),
    );
    await server.clock.advance('31s');
    await waitFor(
      'data-keep-1 collected with its pod',
      () => claimOwners('data-keep-1'),
      (o) => o === undefined,
    );
    assert.deepEqual(await claimOwners('data-keep-0'), ['StatefulSet/keep']);
    await api(`/apis/apps/v1${ns}/statefulsets/keep`, { method: 'DELETE' });
    // pvc-protection holds the claim until keep-0, collected with the set, has terminated.
    await waitFor(
      'keep-0 terminating',
      () => pods('app=keep'),
      (l) => l.items.every((p) => p.metadata.deletionTimestamp !== undefined),
    );
    await server.clock.advance('31s');
    await waitFor(
      'data-keep-0 collected with the set',
      () => claimOwners('data-keep-0'),
      (o) => o === undefined,
    );
  });

  it('Retain (the default): claims carry no owner reference', async () => {
    await api(`/apis/apps/v1${ns}/statefulsets`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'kept' },
        spec: {
          serviceName: 'kept',
          replicas: 1,
          selector: { matchLabels: { app: 'kept' } },
          template: { metadata: { labels: { app: 'kept' } }, spec: { containers: container } },
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
            },
          ],
        },
      },
    });
    await waitFor(
      'kept-0 ready',
      () => api(`/apis/apps/v1${ns}/statefulsets/kept`),
      (s) => s.status?.['readyReplicas'] === 1,
    );
    assert.deepEqual(await claimOwners('data-kept-0'), []);
  });
});
