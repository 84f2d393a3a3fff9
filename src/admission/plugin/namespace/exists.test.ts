// NamespaceExists answers 404 for a namespace that does not exist; NamespaceAutoProvision creates
// it instead (not on a dry run, nor for namespaces themselves).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta.js';
import { isStatusError, newNotFound } from '../../../machinery/errors/index.js';
import type { Creater, Getter } from '../../../registry/rest/capabilities.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import { attributesOf } from '../../testing/attributes.js';
import { NamespaceAutoProvision } from './autoprovision.js';
import { NamespaceExists } from './exists.js';

function namespaces(...names: string[]): Getter & Creater & { created: string[] } {
  const have = new Set(names);
  const created: string[] = [];
  return {
    created,
    get: (_ctx, name) =>
      have.has(name)
        ? Promise.resolve({ metadata: { name } })
        : Promise.reject(newNotFound({ group: '', resource: 'namespaces' }, name)),
    create: (_ctx, obj: KubeObject) => {
      const name = obj.metadata?.name ?? '';
      have.add(name);
      created.push(name);
      return Promise.resolve(obj);
    },
  };
}

describe('NamespaceExists', () => {
  const plugin = new NamespaceExists({ namespaces: namespaces('team') });
  const ctx = testContext();

  it('answers 404 NotFound for a request in a missing namespace', async () => {
    await plugin.validate(ctx, attributesOf({ namespace: 'team' }));
    await assert.rejects(plugin.validate(ctx, attributesOf({ namespace: 'gone' })), (err: unknown) => {
      assert.ok(isStatusError(err));
      assert.equal(err.status.code, 404);
      assert.equal(err.message, 'namespaces "gone" not found');
      return true;
    });
  });

  it('lets cluster-scoped requests and namespaces themselves through', async () => {
    await plugin.validate(ctx, attributesOf({ namespace: '', resource: 'nodes', kind: 'Node' }));
    await plugin.validate(
      ctx,
      attributesOf({ namespace: 'gone', resource: 'namespaces', kind: 'Namespace' }),
    );
  });
});

describe('NamespaceAutoProvision', () => {
  it('creates a missing namespace on create, once, and not on a dry run', async () => {
    const ns = namespaces('team');
    const plugin = new NamespaceAutoProvision({ namespaces: ns });
    const ctx = testContext();
    await plugin.admit(ctx, attributesOf({ namespace: 'team' }));
    await plugin.admit(ctx, attributesOf({ namespace: 'dry', dryRun: true }));
    await plugin.admit(ctx, attributesOf({ namespace: 'fresh' }));
    await plugin.admit(ctx, attributesOf({ namespace: 'fresh' }));
    assert.deepEqual(ns.created, ['fresh']);
    assert.equal(plugin.handles('UPDATE'), false);
  });
});
