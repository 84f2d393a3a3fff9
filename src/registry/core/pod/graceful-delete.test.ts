// Pod deletion as kube 1.33 answers it (pkg/registry/core/pod/strategy.go CheckGracefulDelete with
// k8s.io/apiserver's rest.BeforeDelete): each row creates a pod, deletes it, and checks the outcome.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodPhase } from '../../../api/core/v1/pod-status.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import type { DeleteOptions } from '../../rest/options.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newPodREST, type PodStorage } from './storage.js';
import { podDeleteStrategy } from './strategy.js';

interface Row {
  readonly name: string;
  readonly nodeName?: string;
  readonly phase?: PodPhase;
  readonly terminationGracePeriodSeconds?: number;
  readonly options: DeleteOptions;
  /** undefined: removed at once; a number: kept as terminating with this deletionGracePeriodSeconds. */
  readonly keptWithGrace: number | undefined;
}

const rows: readonly Row[] = [
  { name: 'unbound-default', options: {}, keptWithGrace: undefined },
  { name: 'unbound-now', options: { gracePeriodSeconds: 1 }, keptWithGrace: undefined },
  { name: 'unbound-explicit', options: { gracePeriodSeconds: 30 }, keptWithGrace: undefined },
  { name: 'bound-default', nodeName: 'n1', options: {}, keptWithGrace: 30 },
  {
    name: 'bound-own-period',
    nodeName: 'n1',
    terminationGracePeriodSeconds: 45,
    options: {},
    keptWithGrace: 45,
  },
  { name: 'bound-now', nodeName: 'n1', options: { gracePeriodSeconds: 1 }, keptWithGrace: 1 },
  { name: 'bound-negative', nodeName: 'n1', options: { gracePeriodSeconds: -5 }, keptWithGrace: 1 },
  { name: 'bound-zero', nodeName: 'n1', options: { gracePeriodSeconds: 0 }, keptWithGrace: undefined },
  // A pod's negative period is stored as 1 (Convert_v1_Pod_To_core_Pod), so it goes in 1 second.
  {
    name: 'bound-own-negative',
    nodeName: 'n1',
    terminationGracePeriodSeconds: -5,
    options: {},
    keptWithGrace: 1,
  },
  {
    name: 'unbound-own-negative',
    terminationGracePeriodSeconds: -5,
    options: {},
    keptWithGrace: undefined,
  },
  {
    name: 'bound-own-zero',
    nodeName: 'n1',
    terminationGracePeriodSeconds: 0,
    options: {},
    keptWithGrace: undefined,
  },
  { name: 'succeeded', nodeName: 'n1', phase: 'Succeeded', options: {}, keptWithGrace: undefined },
  {
    name: 'failed-explicit',
    nodeName: 'n1',
    phase: 'Failed',
    options: { gracePeriodSeconds: 60 },
    keptWithGrace: undefined,
  },
  { name: 'running', nodeName: 'n1', phase: 'Running', options: {}, keptWithGrace: 30 },
];

const put = (obj: Pod): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('pod graceful deletion', () => {
  let env: MemoryRESTOptions;
  let s: PodStorage;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    s = await newPodREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  async function makePod(row: Omit<Row, 'options' | 'keptWithGrace'>): Promise<void> {
    const spec: NonNullable<Pod['spec']> = { containers: [{ name: 'app', image: 'nginx:1.25' }] };
    if (row.nodeName !== undefined) spec.nodeName = row.nodeName;
    if (row.terminationGracePeriodSeconds !== undefined)
      spec.terminationGracePeriodSeconds = row.terminationGracePeriodSeconds;
    const created = await s.pods.create(
      ctx,
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: row.name }, spec },
      { options: {} },
    );
    if (row.phase === undefined) return;
    await s.status.update(ctx, row.name, put({ ...created, status: { phase: row.phase } }));
  }

  for (const row of rows) {
    it(`${row.name}: ${row.keptWithGrace === undefined ? 'gone at once' : `terminating for ${String(row.keptWithGrace)}s`}`, async () => {
      await makePod(row);
      const out = await s.pods.delete(ctx, row.name, { options: row.options });
      if (row.keptWithGrace === undefined) {
        assert.equal(out.deleted, true);
        await assert.rejects(s.pods.get(ctx, row.name, {}), /not found/);
        return;
      }
      assert.equal(out.deleted, false);
      const kept = await s.pods.get(ctx, row.name, {});
      assert.equal(kept.metadata?.deletionGracePeriodSeconds, row.keptWithGrace);
      const stamp = Date.parse(kept.metadata.deletionTimestamp ?? '');
      const expected = Date.now() + row.keptWithGrace * 1000;
      assert.ok(
        Math.abs(stamp - expected) < 2000,
        `deletionTimestamp ${String(kept.metadata.deletionTimestamp)}`,
      );
    });
  }

  it('shortens a pending grace period, never lengthens it, and ends it with 0', async () => {
    await makePod({ name: 'terminating', nodeName: 'n1', terminationGracePeriodSeconds: 60 });
    await s.pods.delete(ctx, 'terminating', { options: {} });
    const first = await s.pods.get(ctx, 'terminating', {});
    const firstStamp = Date.parse(first.metadata?.deletionTimestamp ?? '');

    const longer = await s.pods.delete(ctx, 'terminating', { options: { gracePeriodSeconds: 120 } });
    assert.equal(longer.deleted, false);
    const same = await s.pods.get(ctx, 'terminating', {});
    assert.equal(same.metadata?.deletionGracePeriodSeconds, 60);
    assert.equal(same.metadata.resourceVersion, first.metadata?.resourceVersion);

    const again = await s.pods.delete(ctx, 'terminating', { options: {} });
    assert.equal(again.deleted, false);
    assert.equal((await s.pods.get(ctx, 'terminating', {})).metadata?.deletionGracePeriodSeconds, 60);

    await s.pods.delete(ctx, 'terminating', { options: { gracePeriodSeconds: 10 } });
    const shorter = await s.pods.get(ctx, 'terminating', {});
    assert.equal(shorter.metadata?.deletionGracePeriodSeconds, 10);
    // The new deadline counts from when the deletion started, not from this request.
    assert.equal(Date.parse(shorter.metadata.deletionTimestamp ?? ''), firstStamp - 50_000);

    const gone = await s.pods.delete(ctx, 'terminating', { options: { gracePeriodSeconds: 0 } });
    assert.equal(gone.deleted, true);
    await assert.rejects(s.pods.get(ctx, 'terminating', {}), /not found/);
  });

  it('stores a negative grace period as 1 on create and update, without a warning', async () => {
    const createCtx = testContext('default');
    const body: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'negative' },
      spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], terminationGracePeriodSeconds: -1 },
    };
    s.pods.defaultDecoded(body);
    const created = await s.pods.create(createCtx, body, { options: {} });
    assert.equal(created.spec?.terminationGracePeriodSeconds, 1);
    assert.deepEqual(createCtx.warnings, []);
    // An object no decoder saw (a controller's) is fixed as it is prepared.
    const direct = await s.pods.create(
      createCtx,
      { ...structuredClone(body), metadata: { name: 'negative-direct' } },
      { options: {} },
    );
    assert.equal(direct.spec?.terminationGracePeriodSeconds, 1);
    const next = structuredClone(created);
    if (next.spec !== undefined) next.spec.terminationGracePeriodSeconds = -7;
    delete next.metadata?.resourceVersion;
    const updated = testContext('default');
    const out = await s.pods.update(updated, 'negative', put(next));
    assert.equal(out.object.spec?.terminationGracePeriodSeconds, 1);
    assert.deepEqual(updated.warnings, []);
  });

  it("raises a stored pod's own negative period to 1 second as CheckGracefulDelete does", () => {
    const stored: Pod = {
      metadata: { name: 'old' },
      spec: { containers: [], nodeName: 'n1', terminationGracePeriodSeconds: -5 },
    };
    const options: DeleteOptions = {};
    assert.equal(podDeleteStrategy.checkGracefulDelete(ctx, stored, options), true);
    assert.equal(options.gracePeriodSeconds, 1);
  });

  it('bumps the generation when it marks a pod as terminating', async () => {
    await makePod({ name: 'generation', nodeName: 'n1' });
    const before = await s.pods.get(ctx, 'generation', {});
    await s.pods.delete(ctx, 'generation', { options: {} });
    const after = await s.pods.get(ctx, 'generation', {});
    assert.equal(after.metadata?.generation, (before.metadata?.generation ?? 0) + 1);
  });
});
