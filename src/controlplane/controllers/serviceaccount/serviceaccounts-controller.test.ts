import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import { newNamespaceREST, type NamespaceStorage } from '../../../registry/core/namespace/storage.js';
import { newServiceAccountREST } from '../../../registry/core/serviceaccount/storage.js';
import type { Store } from '../../../registry/generic/store.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { internalContext } from '../../../registry/rest/context.js';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import {
  newServiceAccountsController,
  type ServiceAccountsController,
} from './serviceaccounts-controller.js';

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await delay(10);
  }
}

describe('serviceaccounts controller', () => {
  let env: MemoryRESTOptions;
  let ns: NamespaceStorage;
  let sas: Store<ServiceAccount>;
  let controller: ServiceAccountsController;
  const ctx = internalContext();
  const accounts = async (namespace: string): Promise<string[]> => {
    const list = await sas.list(internalContext({ namespace }), {});
    return list.items.map((s) => s.metadata?.name ?? '').sort();
  };

  before(async () => {
    env = await memoryRESTOptions();
    const opts = { restOptionsGetter: env.getter };
    ns = await newNamespaceREST(opts);
    sas = await newServiceAccountREST(opts);
    // One namespace before the controller starts: the first list must cover it.
    await ns.namespaces.create(ctx, { metadata: { name: 'early' } }, { options: {} });
    const raw: APIGroupInfo = {
      group: '',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: { v1: { namespaces: ns.namespaces, serviceaccounts: sas } },
    };
    // Without admission, so that only the controller's own check keeps a terminating namespace empty.
    const made = newServiceAccountsController([raw], {
      logger: new Logger({ sink: memorySink(), verbosity: 4 }),
    });
    assert.ok(made !== undefined);
    controller = made;
    controller.run();
  });
  after(async () => {
    await controller.close();
    await env.close();
  });

  it('creates default in existing and new namespaces, and again when it is deleted', async () => {
    await waitFor('default in early', async () => (await accounts('early')).includes('default'));
    await ns.namespaces.create(ctx, { metadata: { name: 'team' } }, { options: {} });
    await waitFor('default in team', async () => (await accounts('team')).includes('default'));
    const team = internalContext({ namespace: 'team' });
    const first = await sas.get(team, 'default', {});
    await sas.delete(team, 'default', { options: {} });
    await waitFor('a new default in team', async () => {
      const again = await sas.get(team, 'default', {}).catch(() => undefined);
      return again !== undefined && again.metadata?.uid !== first.metadata?.uid;
    });
    assert.deepEqual(await accounts('team'), ['default']);
  });

  it('leaves a terminating namespace alone', async () => {
    await ns.namespaces.create(ctx, { metadata: { name: 'going' } }, { options: {} });
    await waitFor('default in going', async () => (await accounts('going')).includes('default'));
    // The namespace keeps its finalizer (no namespace controller runs here): it stays Terminating.
    await ns.namespaces.delete(ctx, 'going', { options: {} });
    const going = internalContext({ namespace: 'going' });
    await sas.delete(going, 'default', { options: {} });
    // A sync of another namespace after the deletion shows the queue has moved past it.
    await ns.namespaces.create(ctx, { metadata: { name: 'later' } }, { options: {} });
    await waitFor('default in later', async () => (await accounts('later')).includes('default'));
    await delay(50);
    assert.deepEqual(await accounts('going'), []);
  });

  it('is not made without serviceaccounts', () => {
    const group: APIGroupInfo = {
      group: '',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: { v1: { namespaces: ns.namespaces } },
    };
    assert.equal(
      newServiceAccountsController([group], { logger: new Logger({ sink: memorySink() }) }),
      undefined,
    );
  });
});
