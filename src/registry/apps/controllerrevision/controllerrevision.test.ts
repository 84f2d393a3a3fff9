import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ControllerRevision } from '../../../api/apps/v1/controller-revision.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { updateWith } from '../workload/testing.js';
import { controllerRevisionStorageMap } from './storage.js';

describe('controllerrevisions', () => {
  let env: MemoryRESTOptions;
  let store: Store<ControllerRevision>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    store = (await controllerRevisionStorageMap({ restOptionsGetter: env.getter }))[
      'controllerrevisions'
    ] as Store<ControllerRevision>;
  });
  after(() => env.close());

  const rev = (name: string, data?: unknown): ControllerRevision => ({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u1', controller: true },
      ],
    },
    ...(data === undefined ? {} : { data }),
    revision: 1,
  });

  it('requires data and keeps it immutable', async () => {
    await rejectsWithStatus(store.create(ctx, rev('none'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message: 'ControllerRevision.apps "none" is invalid: data: Required value: data is mandatory',
    });
    await store.create(ctx, rev('r1', { spec: { a: 1 } }), { options: {} });
    await rejectsWithStatus(
      store.update(
        ctx,
        'r1',
        updateWith<ControllerRevision>((r) => {
          r.data = { spec: { a: 2 } };
        }),
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ControllerRevision.apps "r1" is invalid: data: Invalid value: {"spec":{"a":2}}: field is immutable',
      },
    );
    assert.deepEqual(store.shortNames(), []);
    assert.deepEqual(store.categories(), []);
  });

  it('prints NAME CONTROLLER REVISION AGE with the controller as kind.group/name', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'r1', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Controller', 'Revision', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 3), ['r1', 'daemonset.apps/agent', 1]);
  });
});
