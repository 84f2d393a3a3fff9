// --simulate in process: the default StorageClass `standard`, the PV controller and the simulated
// provisioner bind claims to volumes `pvc-<uid>` as on a kind cluster, and delete them with the claim.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { waitFor } from './support/wait-for.js';

interface Obj {
  metadata: {
    name: string;
    uid?: string;
    resourceVersion?: string;
    annotations?: Record<string, string>;
    finalizers?: string[];
  };
  spec?: Record<string, unknown> & { volumeName?: string; storageClassName?: string };
  status?: Record<string, unknown> & { phase?: string };
  provisioner?: string;
  reclaimPolicy?: string;
  volumeBindingMode?: string;
}
interface List {
  items: Obj[];
}

/** An in-process server with a simulated cluster of `nodes` nodes, on a data dir of its own. */
async function startSimulated(nodes: number): Promise<{ server: InProcessServer; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-simulate-volumes-'));
  const server = await startInProcess((o) => {
    o.storage.backend = 'memory';
    o.storage.dataDir = dir;
    o.simulate = true;
    o.simulateNodes = nodes;
  });
  return { server, dir };
}

async function stopSimulated(s: { server: InProcessServer; dir: string }): Promise<void> {
  await s.server.stop();
  await rm(s.dir, { recursive: true, force: true });
}

let server: InProcessServer;
let dir: string;
before(async () => {
  ({ server, dir } = await startSimulated(1));
});
after(() => stopSimulated({ server, dir }));

const classesPath = '/apis/storage.k8s.io/v1/storageclasses';
const claimsPath = '/api/v1/namespaces/default/persistentvolumeclaims';
const volumePath = (name: string) => `/api/v1/persistentvolumes/${name}`;

const claimBody = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});

const boundClaim = (name: string) =>
  waitFor(
    `${name} Bound`,
    () => server.json<Obj>(`${claimsPath}/${name}`),
    (c) => c.status?.phase === 'Bound',
  );

const podsPath = '/api/v1/namespaces/default/pods';

/** A pod of one container with these volumes. */
const podWith = (name: string, volumes: Record<string, unknown>[]) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], volumes },
});

/** A pod whose volume `data` is the claim. */
const podUsing = (name: string, claimName: string) =>
  podWith(name, [{ name: 'data', persistentVolumeClaim: { claimName } }]);

/** A pod's PodScheduled condition. */
const podScheduled = (p: Obj) =>
  (p.status?.['conditions'] as { type: string; reason?: string; message?: string }[] | undefined)?.find(
    (c) => c.type === 'PodScheduled',
  );

/** The pod once the scheduler has marked it Unschedulable: its condition's message. */
async function unschedulableMessage(name: string, on: InProcessServer = server): Promise<string | undefined> {
  const waiting = await waitFor(
    `${name} unschedulable`,
    () => on.json<Obj>(`${podsPath}/${name}`),
    (p) => podScheduled(p)?.reason === 'Unschedulable',
  );
  return podScheduled(waiting)?.message;
}

const createClass = (
  name: string,
  provisioner: string,
  extra: Record<string, unknown> = {},
  on: InProcessServer = server,
) =>
  on.json(classesPath, {
    method: 'POST',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name },
      provisioner,
      ...extra,
    },
  });

/** A PersistentVolume of 1Gi, ReadWriteOnce unless `spec` says otherwise. */
const volumeBody = (name: string, spec: Record<string, unknown>, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name, ...(labels === undefined ? {} : { labels }) },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], ...spec },
});

const createVolume = (body: object, on: InProcessServer = server) =>
  on.json('/api/v1/persistentvolumes', { method: 'POST', body });

/** A local volume of the class on the node of that hostname (its nodeAffinity). */
const localVolume = (name: string, hostname: string, storageClassName: string) =>
  volumeBody(name, {
    storageClassName,
    local: { path: `/mnt/${name}` },
    nodeAffinity: {
      required: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [hostname] }] },
        ],
      },
    },
  });

describe('simulated volumes', () => {
  it('creates the default StorageClass standard', async () => {
    const sc = await waitFor(
      'standard',
      () => server.json<List>(classesPath),
      (l) => l.items.some((x) => x.metadata.name === 'standard'),
    );
    const standard = sc.items.find((x) => x.metadata.name === 'standard');
    assert.equal(standard?.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'], 'true');
    assert.equal(standard.provisioner, 'capstan.dev/simulated');
    assert.equal(standard.reclaimPolicy, 'Delete');
    assert.equal(standard.volumeBindingMode, 'Immediate');
  });

  it('binds a claim without a class to a provisioned volume pvc-<uid> of class standard', async () => {
    const created = await server.json<Obj>(claimsPath, { method: 'POST', body: claimBody('data') });
    assert.equal(created.spec?.storageClassName, 'standard');
    const claim = await boundClaim('data');
    const pvName = `pvc-${claim.metadata.uid ?? ''}`;
    assert.equal(claim.spec?.volumeName, pvName);
    const a = claim.metadata.annotations ?? {};
    assert.equal(a['pv.kubernetes.io/bind-completed'], 'yes');
    assert.equal(a['pv.kubernetes.io/bound-by-controller'], 'yes');
    assert.equal(a['volume.kubernetes.io/storage-provisioner'], 'capstan.dev/simulated');
    assert.equal(a['volume.beta.kubernetes.io/storage-provisioner'], 'capstan.dev/simulated');
    assert.deepEqual(claim.status?.['accessModes'], ['ReadWriteOnce']);
    assert.deepEqual(claim.status['capacity'], { storage: '1Gi' });

    const pv = await waitFor(
      `${pvName} Bound`,
      () => server.json<Obj>(volumePath(pvName)),
      (v) => v.status?.phase === 'Bound',
    );
    assert.equal(pv.metadata.annotations?.['pv.kubernetes.io/provisioned-by'], 'capstan.dev/simulated');
    assert.deepEqual(pv.spec?.['capacity'], { storage: '1Gi' });
    assert.deepEqual(pv.spec['accessModes'], ['ReadWriteOnce']);
    assert.equal(pv.spec['volumeMode'], 'Filesystem');
    assert.equal(pv.spec.storageClassName, 'standard');
    assert.equal(pv.spec['persistentVolumeReclaimPolicy'], 'Delete');
    assert.deepEqual(pv.spec['hostPath'], {
      path: `/var/lib/capstan/simulated-volumes/${pvName}`,
      type: 'DirectoryOrCreate',
    });
    const ref = pv.spec['claimRef'] as Record<string, string>;
    assert.equal(ref['kind'], 'PersistentVolumeClaim');
    assert.equal(ref['apiVersion'], 'v1');
    assert.equal(ref['namespace'], 'default');
    assert.equal(ref['name'], 'data');
    assert.equal(ref['uid'], claim.metadata.uid);
    assert.match(ref['resourceVersion'] ?? '', /^\d+$/);
    await waitFor(
      'the provisioning events',
      () =>
        server.json<{ items: { reason: string; involvedObject: { name: string } }[] }>(
          '/api/v1/namespaces/default/events',
        ),
      (l) =>
        ['ExternalProvisioning', 'Provisioning', 'ProvisioningSucceeded'].every((reason) =>
          l.items.some((e) => e.reason === reason && e.involvedObject.name === 'data'),
        ),
    );
  });

  it("binds a StatefulSet's claims from its volumeClaimTemplates", async () => {
    await server.json('/apis/apps/v1/namespaces/default/statefulsets', {
      method: 'POST',
      body: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db' },
        spec: {
          replicas: 2,
          serviceName: 'db',
          selector: { matchLabels: { app: 'db' } },
          template: {
            metadata: { labels: { app: 'db' } },
            spec: {
              containers: [
                { name: 'db', image: 'postgres', volumeMounts: [{ name: 'pgdata', mountPath: '/d' }] },
              ],
            },
          },
          volumeClaimTemplates: [claimBody('pgdata', { resources: { requests: { storage: '2Gi' } } })],
        },
      },
    });
    for (const name of ['pgdata-db-0', 'pgdata-db-1']) {
      const claim = await boundClaim(name);
      assert.equal(claim.spec?.volumeName, `pvc-${claim.metadata.uid ?? ''}`);
      assert.deepEqual(claim.status?.['capacity'], { storage: '2Gi' });
    }
  });

  it('deletes a provisioned volume once its claim is deleted', async () => {
    await server.json(claimsPath, { method: 'POST', body: claimBody('scratch') });
    const claim = await boundClaim('scratch');
    const pvName = claim.spec?.volumeName ?? '';
    const pv = await server.json<Obj>(volumePath(pvName));
    assert.deepEqual(pv.metadata.finalizers, ['kubernetes.io/pv-protection']);
    await server.json(`${claimsPath}/scratch`, { method: 'DELETE' });
    await waitFor(
      `${pvName} deleted`,
      () => server.request(volumePath(pvName)),
      (r) => r.status === 404,
    );
    const gone = await server.request(`${claimsPath}/scratch`);
    assert.equal(gone.status, 404);
  });

  it('binds a claim to the smallest Available volume of its class that its selector matches', async () => {
    const volume = (name: string, size: string, labels: Record<string, string>) =>
      volumeBody(
        name,
        {
          capacity: { storage: size },
          accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
          storageClassName: 'manual',
          hostPath: { path: `/mnt/${name}` },
        },
        labels,
      );
    for (const [name, size, tier] of [
      ['static-small', '1Gi', 'fast'],
      ['static-medium', '5Gi', 'fast'],
      ['static-large', '10Gi', 'fast'],
      ['static-slow', '5Gi', 'slow'],
    ] as const)
      await server.json('/api/v1/persistentvolumes', { method: 'POST', body: volume(name, size, { tier }) });
    await waitFor(
      'static volumes Available',
      () => server.json<List>('/api/v1/persistentvolumes'),
      (l) =>
        l.items.filter((v) => v.metadata.name.startsWith('static-') && v.status?.phase === 'Available')
          .length === 4,
    );
    await server.json(claimsPath, {
      method: 'POST',
      body: claimBody('static', {
        storageClassName: 'manual',
        resources: { requests: { storage: '2Gi' } },
        selector: { matchLabels: { tier: 'fast' } },
      }),
    });
    const claim = await boundClaim('static');
    assert.equal(claim.spec?.volumeName, 'static-medium');
    assert.deepEqual(claim.status?.['capacity'], { storage: '5Gi' });
    assert.deepEqual(claim.status['accessModes'], ['ReadWriteOnce', 'ReadOnlyMany']);
    assert.equal(claim.metadata.annotations?.['volume.kubernetes.io/storage-provisioner'], undefined);
    const pv = await waitFor(
      'static-medium Bound',
      () => server.json<Obj>(volumePath('static-medium')),
      (v) => v.status?.phase === 'Bound',
    );
    assert.equal(pv.metadata.annotations?.['pv.kubernetes.io/bound-by-controller'], 'yes');
    assert.equal((pv.spec?.['claimRef'] as Record<string, string>)['uid'], claim.metadata.uid);
    // A claim made before its volume is bound once the volume is Available.
    await server.json(claimsPath, {
      method: 'POST',
      body: claimBody('early', { storageClassName: 'manual', selector: { matchLabels: { tier: 'late' } } }),
    });
    await server.json('/api/v1/persistentvolumes', {
      method: 'POST',
      body: volume('static-late', '1Gi', { tier: 'late' }),
    });
    assert.equal((await boundClaim('early')).spec?.volumeName, 'static-late');
    // Retain (the default for a volume made by hand): Released when the claim goes, and kept.
    await server.json(`${claimsPath}/static`, { method: 'DELETE' });
    await waitFor(
      'static-medium Released',
      () => server.json<Obj>(volumePath('static-medium')),
      (v) => v.status?.phase === 'Released',
    );
  });

  it('marks a bound claim Lost when its volume goes or names another claim, with a warning', async () => {
    const mergePatch = { 'content-type': 'application/merge-patch+json' };
    const volume = (name: string) =>
      volumeBody(name, { storageClassName: 'lose', hostPath: { path: `/mnt/${name}` } });
    const warning = (claim: string, reason: string) =>
      waitFor(
        `${reason} for ${claim}`,
        () =>
          server.json<{ items: { reason?: string; type?: string; message?: string }[] }>(
            `/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=${claim}`,
          ),
        (l) => l.items.some((e) => e.reason === reason),
      ).then((l) => l.items.find((e) => e.reason === reason));
    const lostClaim = async (name: string) => {
      const lost = await waitFor(
        `${name} Lost`,
        () => server.json<Obj>(`${claimsPath}/${name}`),
        (c) => c.status?.phase === 'Lost',
      );
      // No volume: kube's updateClaimStatus clears what the volume gave.
      assert.equal(lost.status?.['capacity'], undefined);
      assert.equal(lost.status?.['accessModes'], undefined);
    };

    // The volume goes: an admin deletes it and takes its protection off.
    await server.json('/api/v1/persistentvolumes', { method: 'POST', body: volume('lose-gone') });
    await server.json(claimsPath, {
      method: 'POST',
      body: claimBody('lose-gone', { storageClassName: 'lose' }),
    });
    assert.equal((await boundClaim('lose-gone')).spec?.volumeName, 'lose-gone');
    await server.json(volumePath('lose-gone'), { method: 'DELETE' });
    await server.json(volumePath('lose-gone'), {
      method: 'PATCH',
      headers: mergePatch,
      body: { metadata: { finalizers: null } },
    });
    await lostClaim('lose-gone');
    const gone = await warning('lose-gone', 'ClaimLost');
    assert.equal(gone?.type, 'Warning');
    assert.equal(gone.message, 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');

    // The volume is given to another claim: the first one is misbound once it is synced again.
    await server.json('/api/v1/persistentvolumes', { method: 'POST', body: volume('lose-shared') });
    await server.json(claimsPath, {
      method: 'POST',
      body: claimBody('lose-first', { storageClassName: 'lose' }),
    });
    assert.equal((await boundClaim('lose-first')).spec?.volumeName, 'lose-shared');
    const second = await server.json<Obj>(claimsPath, {
      method: 'POST',
      body: claimBody('lose-second', { storageClassName: 'other-lose' }),
    });
    await server.json(volumePath('lose-shared'), {
      method: 'PATCH',
      headers: mergePatch,
      body: { spec: { claimRef: { namespace: 'default', name: 'lose-second', uid: second.metadata.uid } } },
    });
    await server.json(`${claimsPath}/lose-first`, {
      method: 'PATCH',
      headers: mergePatch,
      body: { metadata: { labels: { touched: 'yes' } } },
    });
    await lostClaim('lose-first');
    const misbound = await warning('lose-first', 'ClaimMisbound');
    assert.equal(misbound?.message, 'Two claims are bound to the same volume, this one is bound incorrectly');
  });

  it('leaves a claim of a class with another provisioner Pending and unannotated', async () => {
    await createClass('elsewhere', 'example.com/other');
    const created = await server.json<Obj>(claimsPath, {
      method: 'POST',
      body: claimBody('other', { storageClassName: 'elsewhere' }),
    });
    // A claim of the default class, created after it, is bound first: the controllers have looked.
    await server.json(claimsPath, { method: 'POST', body: claimBody('witness') });
    await boundClaim('witness');
    const claim = await server.json<Obj>(`${claimsPath}/other`);
    assert.equal(claim.status?.phase, 'Pending');
    assert.equal(claim.spec?.volumeName, undefined);
    assert.equal(claim.metadata.resourceVersion, created.metadata.resourceVersion);
    const pvs = await server.json<List>('/api/v1/persistentvolumes');
    assert.equal(
      pvs.items.some((v) => v.metadata.name === `pvc-${claim.metadata.uid ?? ''}`),
      false,
    );
  });

  it("binds a claim of a WaitForFirstConsumer class only once a pod uses it, on that pod's node", async () => {
    await createClass('lazy', 'capstan.dev/simulated', { volumeBindingMode: 'WaitForFirstConsumer' });
    await server.json(claimsPath, {
      method: 'POST',
      body: claimBody('deferred', { storageClassName: 'lazy' }),
    });
    await waitFor(
      'the WaitForFirstConsumer event',
      () =>
        server.json<{ items: { reason: string; message: string; involvedObject: { name: string } }[] }>(
          '/api/v1/namespaces/default/events',
        ),
      (l) =>
        l.items.some(
          (e) =>
            e.involvedObject.name === 'deferred' &&
            e.reason === 'WaitForFirstConsumer' &&
            e.message === 'waiting for first consumer to be created before binding',
        ),
    );
    const waiting = await server.json<Obj>(`${claimsPath}/deferred`);
    assert.equal(waiting.status?.phase, 'Pending');
    assert.equal(waiting.metadata.annotations?.['volume.kubernetes.io/selected-node'], undefined);
    await server.json(podsPath, { method: 'POST', body: podUsing('consumer', 'deferred') });
    const pod = await waitFor(
      'consumer running',
      () => server.json<Obj>(`${podsPath}/consumer`),
      (p) => p.status?.phase === 'Running',
    );
    const claim = await boundClaim('deferred');
    assert.equal(claim.metadata.annotations?.['volume.kubernetes.io/selected-node'], pod.spec?.['nodeName']);
    assert.equal(claim.spec?.volumeName, `pvc-${claim.metadata.uid ?? ''}`);
  });

  it("makes a generic ephemeral volume's claim, owned by its pod, and it goes with the pod", async () => {
    const scratch = {
      name: 'scratch',
      ephemeral: {
        volumeClaimTemplate: {
          metadata: { labels: { type: 'scratch' } },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } },
        },
      },
    };
    await server.json(podsPath, { method: 'POST', body: podWith('scratcher', [scratch]) });
    const pod = await waitFor(
      'scratcher running',
      () => server.json<Obj>(`${podsPath}/scratcher`),
      (p) => p.status?.phase === 'Running',
    );
    const claim = await boundClaim('scratcher-scratch');
    const owners = (claim.metadata as { ownerReferences?: Record<string, unknown>[] }).ownerReferences;
    assert.deepEqual(owners, [
      {
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'scratcher',
        uid: pod.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.equal((claim.metadata as { labels?: Record<string, string> }).labels?.['type'], 'scratch');
    assert.equal(claim.spec?.storageClassName, 'standard');
    const res = await server.request(`${podsPath}/scratcher`, {
      method: 'DELETE',
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 },
    });
    assert.equal(res.status, 200, res.body);
    await waitFor(
      'the claim gone with its pod',
      () => server.request(`${claimsPath}/scratcher-scratch`),
      (r) => r.status === 404,
    );
  });

  it('keeps a pod whose claim is missing or unbound from every node, then schedules it once bound', async () => {
    const scheduled = (p: Obj) =>
      (p.status?.['conditions'] as { type: string; status: string; message?: string }[] | undefined)?.find(
        (c) => c.type === 'PodScheduled',
      );
    const unschedulable = (name: string, message: string) =>
      waitFor(
        `${name} unschedulable`,
        () => server.json<Obj>(`${podsPath}/${name}`),
        (p) => scheduled(p)?.status === 'False' && scheduled(p)?.message === message,
      );
    const preemption = 'preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..';
    await server.json(podsPath, { method: 'POST', body: podUsing('waits', 'later') });
    await unschedulable(
      'waits',
      `0/1 nodes are available: persistentvolumeclaim "later" not found. ${preemption}`,
    );
    // The claim 'other' (class elsewhere, another provisioner) stays unbound.
    await server.json(podsPath, { method: 'POST', body: podUsing('stuck', 'other') });
    await unschedulable(
      'stuck',
      `0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${preemption}`,
    );
    await server.json(claimsPath, { method: 'POST', body: claimBody('later') });
    const running = await waitFor(
      'waits running',
      () => server.json<Obj>(`${podsPath}/waits`),
      (p) => p.status?.phase === 'Running',
    );
    assert.equal(running.spec?.['nodeName'], 'sim-node-0');
    assert.equal((await server.json<Obj>(`${podsPath}/stuck`)).status?.phase, 'Pending');
  });

  it('keeps a second pod off while another uses its ReadWriteOncePod claim (VolumeRestrictions)', async () => {
    await server.json(claimsPath, {
      method: 'POST',
      body: claimBody('solo', { accessModes: ['ReadWriteOncePod'] }),
    });
    await boundClaim('solo');
    await server.json(podsPath, { method: 'POST', body: podUsing('solo-first', 'solo') });
    await waitFor(
      'solo-first running',
      () => server.json<Obj>(`${podsPath}/solo-first`),
      (p) => p.status?.phase === 'Running',
    );
    await server.json(podsPath, { method: 'POST', body: podUsing('solo-second', 'solo') });
    assert.equal(
      await unschedulableMessage('solo-second'),
      '0/1 nodes are available: 1 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..',
    );
    // The first goes; the second takes the claim.
    await server.json(`${podsPath}/solo-first?gracePeriodSeconds=0`, { method: 'DELETE' });
    const running = await waitFor(
      'solo-second running',
      () => server.json<Obj>(`${podsPath}/solo-second`),
      (p) => p.status?.phase === 'Running',
    );
    assert.equal(running.spec?.['nodeName'], 'sim-node-0');
  });

  it('keeps a second writer of a GCE PD off the node that mounts it (VolumeRestrictions)', async () => {
    const disk = (name: string, readOnly: boolean) =>
      podWith(name, [{ name: 'disk', gcePersistentDisk: { pdName: 'shared-pd', readOnly } }]);
    await server.json(podsPath, { method: 'POST', body: disk('pd-reader', true) });
    await waitFor(
      'pd-reader running',
      () => server.json<Obj>(`${podsPath}/pd-reader`),
      (p) => p.status?.phase === 'Running',
    );
    // A second reader fits beside the first; a writer does not.
    await server.json(podsPath, { method: 'POST', body: disk('pd-reader-2', true) });
    await waitFor(
      'pd-reader-2 running',
      () => server.json<Obj>(`${podsPath}/pd-reader-2`),
      (p) => p.status?.phase === 'Running',
    );
    await server.json(podsPath, { method: 'POST', body: disk('pd-writer', false) });
    assert.equal(
      await unschedulableMessage('pd-writer'),
      '0/1 nodes are available: 1 node(s) had no available disk. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..',
    );
    for (const name of ['pd-reader', 'pd-reader-2', 'pd-writer'])
      await server.json(`${podsPath}/${name}?gracePeriodSeconds=0`, { method: 'DELETE' });
  });

  it('schedules a pod only to a node its bound volume’s nodeAffinity selects', async () => {
    for (const [volume, claim, host] of [
      ['local-here', 'here', 'sim-node-0'],
      ['local-away', 'away', 'sim-node-9'],
    ] as const) {
      await createVolume(localVolume(volume, host, 'local'));
      await server.json(claimsPath, {
        method: 'POST',
        body: claimBody(claim, { storageClassName: 'local', volumeName: volume }),
      });
      await boundClaim(claim);
    }
    await server.json(podsPath, { method: 'POST', body: podUsing('on-here', 'here') });
    const placed = await waitFor(
      'on-here running',
      () => server.json<Obj>(`${podsPath}/on-here`),
      (p) => p.status?.phase === 'Running',
    );
    assert.equal(placed.spec?.['nodeName'], 'sim-node-0');
    // No node is sim-node-9: VolumeBinding's conflict on every node.
    await server.json(podsPath, { method: 'POST', body: podUsing('on-away', 'away') });
    const message =
      '0/1 nodes are available: 1 node(s) had volume node affinity conflict. ' +
      'preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..';
    await waitFor(
      'on-away unschedulable',
      () => server.json<Obj>(`${podsPath}/on-away`),
      (p) =>
        (p.status?.['conditions'] as { type: string; message?: string }[] | undefined)?.find(
          (c) => c.type === 'PodScheduled',
        )?.message === message,
    );
    assert.equal((await server.json<Obj>(`${podsPath}/on-away`)).spec?.['nodeName'], undefined);
  });

  it('binds a local volume’s WaitForFirstConsumer claim on a node the volume is on, and waits without one', async () => {
    await createClass('local-wait', 'kubernetes.io/no-provisioner', {
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    // A volume on a node the cluster does not have is never chosen.
    await createVolume(localVolume('lw-away', 'sim-node-7', 'local-wait'));
    await createVolume(localVolume('lw-here', 'sim-node-0', 'local-wait'));
    for (const name of ['lw1', 'lw2']) {
      await server.json(claimsPath, {
        method: 'POST',
        body: claimBody(name, { storageClassName: 'local-wait' }),
      });
      await server.json(podsPath, { method: 'POST', body: podUsing(`${name}-pod`, name) });
    }
    // One of the two pods gets lw-here; the other finds no volume on the node.
    const message =
      "0/1 nodes are available: 1 node(s) didn't find available persistent volumes to bind. " +
      'preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..';
    const condition = (p: Obj) =>
      (p.status?.['conditions'] as { type: string; message?: string }[] | undefined)?.find(
        (c) => c.type === 'PodScheduled',
      );
    const settled = await waitFor(
      'one pod running, the other unschedulable',
      async () => [
        await server.json<Obj>(`${podsPath}/lw1-pod`),
        await server.json<Obj>(`${podsPath}/lw2-pod`),
      ],
      (pods) =>
        pods.some((p) => p.status?.phase === 'Running') &&
        pods.some((p) => condition(p)?.message === message),
    );
    const running = settled.find((p) => p.status?.phase === 'Running');
    const claimName = running?.metadata.name === 'lw1-pod' ? 'lw1' : 'lw2';
    assert.equal(running?.spec?.['nodeName'], 'sim-node-0');
    assert.equal((await boundClaim(claimName)).spec?.volumeName, 'lw-here');
    // A second volume on the node lets the other pod in.
    await createVolume(localVolume('lw-more', 'sim-node-0', 'local-wait'));
    const other = claimName === 'lw1' ? 'lw2' : 'lw1';
    await waitFor(
      `${other}-pod running`,
      () => server.json<Obj>(`${podsPath}/${other}-pod`),
      (p) => p.status?.phase === 'Running',
    );
    assert.equal((await boundClaim(other)).spec?.volumeName, 'lw-more');
    assert.equal((await server.json<Obj>(volumePath('lw-away'))).status?.phase, 'Available');
  });
});

describe('simulated volumes on two nodes', () => {
  let two: InProcessServer;
  let twoDir: string;
  before(async () => {
    ({ server: two, dir: twoDir } = await startSimulated(2));
  });
  after(() => stopSimulated({ server: two, dir: twoDir }));

  it('binds the volumes of pods scheduled together one each, as kube’s assume cache keeps them apart', async () => {
    await createClass(
      'local-pair',
      'kubernetes.io/no-provisioner',
      { volumeBindingMode: 'WaitForFirstConsumer' },
      two,
    );
    // Both pods wait for a volume first, so that the first one made lets both in at once.
    for (const name of ['pair-a', 'pair-b']) {
      await two.json(claimsPath, {
        method: 'POST',
        body: claimBody(name, { storageClassName: 'local-pair' }),
      });
      await two.json(podsPath, { method: 'POST', body: podUsing(`${name}-pod`, name) });
    }
    const unschedulable = (p: Obj) =>
      (p.status?.['conditions'] as { type: string; reason?: string }[] | undefined)?.some(
        (c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable',
      ) === true;
    const pods = () =>
      Promise.all(['pair-a-pod', 'pair-b-pod'].map((n) => two.json<Obj>(`${podsPath}/${n}`)));
    await waitFor('both pods unschedulable', pods, (ps) => ps.every(unschedulable));
    await createVolume(localVolume('pair-on-1', 'sim-node-1', 'local-pair'), two);
    await createVolume(localVolume('pair-on-0', 'sim-node-0', 'local-pair'), two);
    const running = await waitFor('both pods running', pods, (ps) =>
      ps.every((p) => p.status?.phase === 'Running'),
    );
    const nodes = running.map((p) => p.spec?.['nodeName']);
    assert.deepEqual([...nodes].sort(), ['sim-node-0', 'sim-node-1']);
    for (const [i, name] of ['pair-a', 'pair-b'].entries()) {
      const claim = await two.json<Obj>(`${claimsPath}/${name}`);
      const volumeName = nodes[i] === 'sim-node-0' ? 'pair-on-0' : 'pair-on-1';
      assert.equal(claim.spec?.volumeName, volumeName);
      // The scheduler bound the volume (BindPodVolumes), so the claim names no node: kube gives
      // one only to a claim whose volume is to be provisioned.
      assert.equal(claim.metadata.annotations?.['volume.kubernetes.io/selected-node'], undefined);
      const pv = await two.json<Obj>(volumePath(volumeName));
      assert.equal((pv.spec?.['claimRef'] as Record<string, string>)['uid'], claim.metadata.uid);
      assert.equal(pv.metadata.annotations?.['pv.kubernetes.io/bound-by-controller'], 'yes');
    }
  });

  it('provisions a claim only on a node where its CSI driver reports room for it', async () => {
    // What the driver's external-provisioner would publish for the class on one node.
    const reportCapacity = (node: string, capacity: string) =>
      two.json('/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities', {
        method: 'POST',
        body: {
          apiVersion: 'storage.k8s.io/v1',
          kind: 'CSIStorageCapacity',
          metadata: { name: `on-${node}` },
          storageClassName: 'csi-capacity',
          nodeTopology: { matchLabels: { 'kubernetes.io/hostname': node } },
          capacity,
        },
      });
    await two.json('/apis/storage.k8s.io/v1/csidrivers', {
      method: 'POST',
      body: {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSIDriver',
        metadata: { name: 'capacity.csi.example.com' },
        spec: { storageCapacity: true },
      },
    });
    await createClass(
      'csi-capacity',
      'capacity.csi.example.com',
      { volumeBindingMode: 'WaitForFirstConsumer' },
      two,
    );
    await reportCapacity('sim-node-1', '10Gi');
    const request = (storage: string) => ({
      storageClassName: 'csi-capacity',
      resources: { requests: { storage } },
    });
    await two.json(claimsPath, { method: 'POST', body: claimBody('cap-fits', request('5Gi')) });
    await two.json(podsPath, { method: 'POST', body: podUsing('cap-fits-pod', 'cap-fits') });
    // The claim is given the one node with room; its provisioner (none runs here) would make it.
    await waitFor(
      'cap-fits given sim-node-1',
      () => two.json<Obj>(`${claimsPath}/cap-fits`),
      (c) => c.metadata.annotations?.['volume.kubernetes.io/selected-node'] === 'sim-node-1',
    );
    await two.json(claimsPath, { method: 'POST', body: claimBody('cap-big', request('20Gi')) });
    await two.json(podsPath, { method: 'POST', body: podUsing('cap-big-pod', 'cap-big') });
    const message =
      '0/2 nodes are available: 2 node(s) did not have enough free storage. ' +
      'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..';
    await waitFor(
      'cap-big-pod unschedulable for want of storage',
      () => two.json<Obj>(`${podsPath}/cap-big-pod`),
      (p) =>
        (p.status?.['conditions'] as { type: string; message?: string }[] | undefined)?.some(
          (c) => c.type === 'PodScheduled' && c.message === message,
        ) === true,
    );
    // Room reported later lets it in.
    await reportCapacity('sim-node-0', '1Ti');
    await waitFor(
      'cap-big given sim-node-0',
      () => two.json<Obj>(`${claimsPath}/cap-big`),
      (c) => c.metadata.annotations?.['volume.kubernetes.io/selected-node'] === 'sim-node-0',
    );
  });

  it('schedules a pod only to a node in the zone of its bound volume (VolumeZone)', async () => {
    for (const [node, zone] of [
      ['sim-node-0', 'zone-a'],
      ['sim-node-1', 'zone-b'],
    ] as const)
      await two.json(`/api/v1/nodes/${node}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { metadata: { labels: { 'topology.kubernetes.io/zone': zone } } },
      });
    await createVolume(
      volumeBody(
        'zoned-pv',
        { storageClassName: '', hostPath: { path: '/mnt/zoned' } },
        { 'topology.kubernetes.io/zone': 'zone-b' },
      ),
      two,
    );
    await two.json(claimsPath, {
      method: 'POST',
      body: claimBody('zoned', { storageClassName: '', volumeName: 'zoned-pv' }),
    });
    await waitFor(
      'zoned Bound',
      () => two.json<Obj>(`${claimsPath}/zoned`),
      (c) => c.status?.phase === 'Bound',
    );
    // Spread by least requested alone, four pods would use both nodes; the volume's zone keeps them to one.
    for (const i of [0, 1, 2, 3])
      await two.json(podsPath, { method: 'POST', body: podUsing(`zoned-${String(i)}`, 'zoned') });
    for (const i of [0, 1, 2, 3]) {
      const pod = await waitFor(
        `zoned-${String(i)} running`,
        () => two.json<Obj>(`${podsPath}/zoned-${String(i)}`),
        (p) => p.status?.phase === 'Running',
      );
      assert.equal(pod.spec?.['nodeName'], 'sim-node-1');
    }
  });

  it('keeps each node to the volumes its CSINode lets it attach (NodeVolumeLimits)', async () => {
    const driver = 'limited.csi.example.com';
    for (const node of ['sim-node-0', 'sim-node-1'])
      await two.json('/apis/storage.k8s.io/v1/csinodes', {
        method: 'POST',
        body: {
          apiVersion: 'storage.k8s.io/v1',
          kind: 'CSINode',
          metadata: { name: node },
          spec: { drivers: [{ name: driver, nodeID: node, allocatable: { count: 1 } }] },
        },
      });
    for (const name of ['lim-0', 'lim-1', 'lim-2']) {
      await createVolume(
        volumeBody(`${name}-pv`, { storageClassName: '', csi: { driver, volumeHandle: `${name}-disk` } }),
        two,
      );
      await two.json(claimsPath, {
        method: 'POST',
        body: claimBody(name, { storageClassName: '', volumeName: `${name}-pv` }),
      });
      await waitFor(
        `${name} Bound`,
        () => two.json<Obj>(`${claimsPath}/${name}`),
        (c) => c.status?.phase === 'Bound',
      );
    }
    for (const name of ['lim-0', 'lim-1']) {
      await two.json(podsPath, { method: 'POST', body: podUsing(`${name}-pod`, name) });
      await waitFor(
        `${name}-pod running`,
        () => two.json<Obj>(`${podsPath}/${name}-pod`),
        (p) => p.status?.phase === 'Running',
      );
    }
    const nodes = await Promise.all(
      ['lim-0', 'lim-1'].map(async (n) => (await two.json<Obj>(`${podsPath}/${n}-pod`)).spec?.['nodeName']),
    );
    assert.deepEqual([...nodes].sort(), ['sim-node-0', 'sim-node-1']);
    await two.json(podsPath, { method: 'POST', body: podUsing('lim-2-pod', 'lim-2') });
    assert.equal(
      await unschedulableMessage('lim-2-pod', two),
      '0/2 nodes are available: 2 node(s) exceed max volume count. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..',
    );
  });
});
