import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClusterRole } from '../../../api/rbac/v1/rbac.js';
import type { Store } from '../../../registry/generic/store.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { newClusterRoleREST } from '../../../registry/rbac/storage.js';
import { internalContext } from '../../../registry/rest/context.js';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import {
  ClusterRoleAggregationController,
  clusterRoleAggregationFieldManager,
} from './clusterrole-aggregation-controller.js';
import { waitFor as waitUntil } from '../../../machinery/testing/wait-for.js';

const apiVersion = 'rbac.authorization.k8s.io/v1';
const toView = { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' };
const podsRule = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] };
const widgetsRule = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };

const waitFor = async (what: string, check: () => Promise<boolean>): Promise<void> => {
  await waitUntil(what, check, (ok) => ok);
};

describe('clusterrole-aggregation-controller', () => {
  let env: MemoryRESTOptions;
  let roles: Store<ClusterRole>;
  let controller: ClusterRoleAggregationController;
  const ctx = internalContext();
  const create = (role: ClusterRole): Promise<ClusterRole> => roles.create(ctx, role, { options: {} });
  const view = (): Promise<ClusterRole> => roles.get(ctx, 'view', {});
  const viewRules = async (): Promise<unknown> => (await view()).rules;

  before(async () => {
    env = await memoryRESTOptions();
    roles = await newClusterRoleREST({ restOptionsGetter: env.getter });
    await create({
      apiVersion,
      kind: 'ClusterRole',
      metadata: { name: 'view' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: toView }] },
    });
    await create({
      apiVersion,
      kind: 'ClusterRole',
      metadata: { name: 'system:aggregate-to-view', labels: toView },
      rules: [podsRule],
    });
    controller = new ClusterRoleAggregationController({
      clusterRoles: roles,
      logger: new Logger({ sink: memorySink(), verbosity: 4 }),
    });
    controller.run();
  });
  after(async () => {
    await controller.close();
    await env.close();
  });

  it('fills an aggregated role with the rules of the roles it selects, by a forced apply', async () => {
    await waitFor(
      'view to hold the pods rule',
      async () => JSON.stringify(await viewRules()) === JSON.stringify([podsRule]),
    );
    const managed = (await view()).metadata?.managedFields ?? [];
    const entry = managed.find((m) => m.manager === clusterRoleAggregationFieldManager);
    assert.equal(entry?.operation, 'Apply');
    assert.deepEqual(entry.fieldsV1, { 'f:rules': {} });
  });

  it('takes in a labelled role, and lets it go when the label goes', async () => {
    const custom = await create({
      apiVersion,
      kind: 'ClusterRole',
      metadata: { name: 'widget-viewer', labels: toView },
      rules: [widgetsRule],
    });
    await waitFor(
      'view to take the widgets rule',
      async () => JSON.stringify(await viewRules()) === JSON.stringify([podsRule, widgetsRule]),
    );
    await roles.update(ctx, 'widget-viewer', {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: () => Promise.resolve({ ...custom, metadata: { ...custom.metadata, labels: {} } }),
      },
      options: {},
    });
    await waitFor(
      'view to drop the widgets rule',
      async () => JSON.stringify(await viewRules()) === JSON.stringify([podsRule]),
    );
  });

  it('empties an aggregated role whose selected roles are gone', async () => {
    await roles.delete(ctx, 'system:aggregate-to-view', { options: {} });
    await waitFor(
      'view to be empty',
      async () => (((await viewRules()) as unknown[] | undefined) ?? []).length === 0,
    );
  });
});
