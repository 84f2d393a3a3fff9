// The deployment and replicaset controllers over real in-memory storages: the test plays the
// kubelet (it marks pods Running and Ready) and, for the failure cases, a ResourceQuota refusing
// every pod create.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { AppsCondition } from '../../../api/apps/v1/group.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { ReplicaSetController } from '../replicaset/replicaset-controller.js';
import { rfc3339 } from '../simulation/clock.js';
import type { Informer } from '../simulation/informer.js';
import {
  startWorkloadHarness,
  testDeployment,
  type WorkloadHarness,
} from '../simulation/testing/workload-harness.js';
import { DeploymentController } from './deployment-controller.js';
import { waitFor } from '../../../machinery/testing/wait-for.js';

const ns = 'default';
const quota = 'exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0';
let h: WorkloadHarness;
let deploymentController: DeploymentController;
let replicaSetController: ReplicaSetController;
let replicaSets: Informer<ReplicaSet>;
let pods: Informer<Pod>;
/** Every Progressing condition each Deployment was seen with, in order. */
const progressing = new Map<string, AppsCondition[]>();

const deployment = testDeployment;
const getDeployment = (name: string) =>
  h.client.get<Deployment>('apps/v1/deployments', { namespace: ns, name });
const replicaSetsOf = (d: Deployment): ReplicaSet[] =>
  replicaSets.list(ns).filter((rs) => rs.metadata?.ownerReferences?.[0]?.uid === d.metadata?.uid);
const condition = (o: Deployment | ReplicaSet | undefined, type: string) =>
  o?.status?.conditions?.find((c) => c.type === type);
const brief = (c: AppsCondition | undefined) => c && [c.status, c.reason, c.message];

/** The kubelet's part: every pod of the app Running and Ready. */
async function runPods(app: string, count: number): Promise<void> {
  const listed = await waitFor(
    `${String(count)} pods of ${app}`,
    () => Promise.resolve(pods.list(ns).filter((p) => p.metadata?.labels?.['app'] === app)),
    (l) => l.length === count,
  );
  const now = rfc3339(h.clock.now());
  for (const pod of listed)
    await h.client.update('/v1/pods/status', {
      ...pod,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] },
    });
}

/** Changes a Deployment's spec, again on a conflict with the controller's status writes. */
async function updateSpec(name: string, change: Partial<NonNullable<Deployment['spec']>>): Promise<void> {
  for (;;) {
    const d = await getDeployment(name);
    try {
      await h.client.update('apps/v1/deployments', {
        ...d,
        spec: { ...d.spec, ...change },
      });
      return;
    } catch (err) {
      if ((err as { reason?: string }).reason !== 'Conflict') throw err;
    }
  }
}

async function setPaused(name: string, paused: boolean): Promise<void> {
  const d = await getDeployment(name);
  await h.client.update('apps/v1/deployments', { ...d, spec: { ...d.spec, paused } });
}

before(async () => {
  h = await startWorkloadHarness();
  const deployments = await h.informer<Deployment>('apps/v1/deployments');
  replicaSets = await h.informer<ReplicaSet>('apps/v1/replicasets');
  pods = await h.informer<Pod>('/v1/pods');
  deployments.addHandler((_type, d) => {
    const c = condition(d, 'Progressing');
    const name = d.metadata?.name ?? '';
    const seen = progressing.get(name) ?? [];
    if (c !== undefined && JSON.stringify(seen.at(-1)) !== JSON.stringify(c)) seen.push(c);
    progressing.set(name, seen);
  });
  const common = { client: h.client, replicaSets, clock: h.clock, logger: h.logger };
  deploymentController = new DeploymentController({
    ...common,
    deployments,
    recorder: h.recorder('deployment-controller'),
  });
  replicaSetController = new ReplicaSetController({
    ...common,
    pods,
    recorder: h.recorder('replicaset-controller'),
  });
  deploymentController.run();
  replicaSetController.run();
});

after(async () => {
  await deploymentController.close();
  await replicaSetController.close();
  await h.close();
});

describe('deployment controller', () => {
  it('annotates the revision through /status, so a new Deployment stays at generation 1', async () => {
    await h.client.create('apps/v1/deployments', ns, deployment('d4', 1));
    const d = await waitFor(
      'd4 observed at revision 1',
      () => getDeployment('d4'),
      (x) =>
        x.metadata?.annotations?.['deployment.kubernetes.io/revision'] === '1' &&
        x.status?.observedGeneration === x.metadata.generation,
    );
    assert.equal(d.metadata?.generation, 1);
    assert.equal(d.status?.observedGeneration, 1);
    const [rs] = replicaSetsOf(d);
    assert.equal(rs?.metadata?.annotations?.['deployment.kubernetes.io/revision'], '1');
  });

  it('holds Progressing Unknown while paused, and says so again when resumed', async () => {
    await h.client.create('apps/v1/deployments', ns, deployment('web', 2));
    await runPods('web', 2);
    await waitFor(
      'web complete',
      () => getDeployment('web'),
      (x) => condition(x, 'Progressing')?.reason === 'NewReplicaSetAvailable',
    );
    await setPaused('web', true);
    const paused = await waitFor(
      'web paused',
      () => getDeployment('web'),
      (x) => condition(x, 'Progressing')?.reason === 'DeploymentPaused' && x.status?.observedGeneration === 2,
    );
    assert.deepEqual(brief(condition(paused, 'Progressing')), [
      'Unknown',
      'DeploymentPaused',
      'Deployment is paused',
    ]);
    assert.equal(condition(paused, 'Available')?.status, 'True');
    await setPaused('web', false);
    await waitFor(
      'web complete again',
      () => getDeployment('web'),
      (x) =>
        condition(x, 'Progressing')?.reason === 'NewReplicaSetAvailable' &&
        x.status?.observedGeneration === 3,
    );
    // Resuming passes through Unknown DeploymentResumed before the rollout is found complete again.
    assert.deepEqual((progressing.get('web') ?? []).map((c) => c.reason).slice(-3), [
      'DeploymentPaused',
      'DeploymentResumed',
      'NewReplicaSetAvailable',
    ]);
    const resumed = (progressing.get('web') ?? []).find((c) => c.reason === 'DeploymentResumed');
    assert.deepEqual(brief(resumed), ['Unknown', 'DeploymentResumed', 'Deployment is resumed']);
  });

  it('scales a paused Deployment, and a paused rollout in proportion to its ReplicaSets', async () => {
    const d0 = { ...deployment('paused', 4) };
    d0.spec = {
      ...d0.spec,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    };
    await h.client.create('apps/v1/deployments', ns, d0);
    await runPods('paused', 4);
    await waitFor(
      'paused complete',
      () => getDeployment('paused'),
      (x) => condition(x, 'Progressing')?.reason === 'NewReplicaSetAvailable',
    );
    const sizes = async (): Promise<number[]> =>
      replicaSetsOf(await getDeployment('paused'))
        .map((rs) => rs.spec?.replicas ?? 0)
        .sort((a, b) => b - a);
    // Paused, the Deployment's one ReplicaSet takes a new size at once.
    await updateSpec('paused', { paused: true });
    await updateSpec('paused', { replicas: 5 });
    await waitFor('the ReplicaSet at 5', sizes, (l) => l.length === 1 && l[0] === 5);
    const [scaled] = replicaSetsOf(await getDeployment('paused'));
    const annotations = scaled?.metadata?.annotations ?? {};
    assert.equal(annotations['deployment.kubernetes.io/desired-replicas'], '5');
    assert.equal(annotations['deployment.kubernetes.io/max-replicas'], '6');
    await runPods('paused', 5);
    // Resumed with a new template whose pods never become ready: with maxSurge 1 and no
    // unavailability allowed, the rollout stops at one new pod beside five old ones.
    const template = { ...d0.spec.template, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } };
    await updateSpec('paused', { template, paused: false });
    await waitFor('the rollout stuck at 5 + 1', sizes, (l) => l.join() === '5,1');
    // Paused and scaled to 11 there: 12 may run, 6 more, shared as 5 to the old and 1 to the new.
    await updateSpec('paused', { paused: true, replicas: 11 });
    await waitFor('the proportional shares', sizes, (l) => l.join() === '10,2');
  });

  it('reports refused pod creates: FailedCreate events, ReplicaFailure on the ReplicaSet and the Deployment', async () => {
    h.refusePodCreates(quota);
    const message = `pods is forbidden: ${quota}`;
    await h.client.create('apps/v1/deployments', ns, deployment('full', 2));
    const d = await waitFor(
      'full with ReplicaFailure',
      () => getDeployment('full'),
      (x) => condition(x, 'ReplicaFailure') !== undefined,
    );
    assert.deepEqual(brief(condition(d, 'ReplicaFailure')), ['True', 'FailedCreate', message]);
    const [rs] = replicaSetsOf(d);
    assert.ok(rs);
    assert.equal(rs.status?.observedGeneration, 1);
    assert.equal(rs.status.replicas, 0);
    const failure = condition(rs, 'ReplicaFailure');
    assert.deepEqual(brief(failure), ['True', 'FailedCreate', message]);
    assert.equal(condition(d, 'ReplicaFailure')?.lastTransitionTime, failure?.lastTransitionTime);
    const events = await h.eventsAbout(ns, rs.metadata?.name ?? '');
    assert.deepEqual(
      events.map((e) => [e.type, e.reason, e.message]),
      [['Warning', 'FailedCreate', `Error creating: ${message}`]],
    );

    h.refusePodCreates(undefined);
    const healed = await waitFor(
      'full without ReplicaFailure',
      () => getDeployment('full'),
      (x) => condition(x, 'ReplicaFailure') === undefined && x.status?.replicas === 2,
    );
    assert.equal(healed.status?.observedGeneration, 1);
    const [after] = replicaSetsOf(healed);
    assert.equal(condition(after, 'ReplicaFailure'), undefined);
  });

  it('marks a rollout that makes no progress for progressDeadlineSeconds ProgressDeadlineExceeded', async () => {
    const stuck = deployment('stuck', 1);
    await h.client.create('apps/v1/deployments', ns, {
      ...stuck,
      spec: { ...stuck.spec, progressDeadlineSeconds: 30 },
    });
    // Its pod is created but never runs: the rollout stays at ReplicaSetUpdated / NewReplicaSetCreated.
    const started = await waitFor(
      'stuck progressing',
      () => getDeployment('stuck'),
      (x) => condition(x, 'Progressing')?.status === 'True' && x.status?.replicas === 1,
    );
    assert.notEqual(condition(started, 'Progressing')?.reason, 'ProgressDeadlineExceeded');
    await h.advance(20_000);
    assert.equal(condition(await getDeployment('stuck'), 'Progressing')?.status, 'True');
    // Past the deadline the controller looks again by itself: nothing else changes the Deployment.
    await h.advance(12_000);
    const timedOut = await waitFor(
      'stuck timed out',
      () => getDeployment('stuck'),
      (x) => condition(x, 'Progressing')?.reason === 'ProgressDeadlineExceeded',
    );
    const [rs] = replicaSetsOf(timedOut);
    assert.deepEqual(brief(condition(timedOut, 'Progressing')), [
      'False',
      'ProgressDeadlineExceeded',
      `ReplicaSet "${rs?.metadata?.name ?? ''}" has timed out progressing.`,
    ]);
  });
});
