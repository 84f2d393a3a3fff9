import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { isCreater, isGetter, isLister, isUpdater, isWatcher } from '../../rest/capabilities.js';
import type { ComponentProbe } from './probe.js';
import { ComponentStatusREST } from './rest.js';

describe('componentstatuses', () => {
  let env: MemoryRESTOptions;
  let rest: ComponentStatusREST;
  // A real storage answers etcd-0, as the server's probe asks its backend for the current revision.
  before(async () => {
    env = await memoryRESTOptions();
    const storage: ComponentProbe = {
      name: 'etcd-0',
      check: async () => {
        await env.backend.currentRevision();
        return 'ok';
      },
    };
    const broken: ComponentProbe = {
      name: 'etcd-1',
      check: () => Promise.reject(new Error('context deadline exceeded')),
    };
    rest = new ComponentStatusREST([broken, storage]);
  });
  after(() => env.close());

  it('is read-only and cluster-scoped with short name cs', () => {
    assert.equal(isGetter(rest) && isLister(rest), true);
    assert.equal(isCreater(rest) || isUpdater(rest) || isWatcher(rest), false);
    assert.equal(rest.namespaceScoped(), false);
    assert.deepEqual(rest.shortNames(), ['cs']);
  });

  it('lists every component, sorted, healthy when the probe answers', async () => {
    const ctx = testContext('');
    const list = await rest.list(ctx, {});
    assert.deepEqual(
      list.items.map((c) => [c.metadata?.name, c.conditions]),
      [
        ['etcd-0', [{ type: 'Healthy', status: 'True', message: 'ok' }]],
        ['etcd-1', [{ type: 'Healthy', status: 'False', error: 'context deadline exceeded' }]],
      ],
    );
    const table = rest.convertToTable(ctx, list, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Status', 'Message', 'Error'],
    );
    assert.deepEqual(
      table.rows.map((r) => r.cells),
      [
        ['etcd-0', 'Healthy', 'ok', ''],
        ['etcd-1', 'Unhealthy', '', 'context deadline exceeded'],
      ],
    );
  });

  it('gets one by name, filters by metadata.name, and answers 404 for an unknown one', async () => {
    const ctx = testContext('');
    const one = await rest.get(ctx, 'etcd-0', {});
    assert.equal(one.conditions?.[0]?.status, 'True');
    const filtered = await rest.list(ctx, { fieldSelector: 'metadata.name=etcd-1' });
    assert.deepEqual(
      filtered.items.map((c) => c.metadata?.name),
      ['etcd-1'],
    );
    await rejectsWithStatus(rest.get(ctx, 'scheduler', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'componentstatuses "scheduler" not found',
    });
    await rejectsWithStatus(rest.list(ctx, { fieldSelector: 'status=x' }), {
      code: 400,
      reason: 'BadRequest',
    });
  });
});
