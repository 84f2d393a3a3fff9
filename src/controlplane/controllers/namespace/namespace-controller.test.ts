import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { KubeObject } from '../../../api/meta.js';
import { isLister } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import { admittedCoreAPI, type AdmittedCoreAPI } from '../../../endpoints/testing/admitted-core-api.js';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import { controllerHook } from '../controller-hook.js';
import { newNamespaceController, type NamespaceController } from './namespace-controller.js';

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await delay(10);
  }
}

describe('namespace controller', () => {
  let api: AdmittedCoreAPI;
  let controller: NamespaceController;
  const sink = memorySink();
  const logger = new Logger({ sink, verbosity: 4 });
  const json = { 'content-type': 'application/json' };
  const create = async (path: string, obj: KubeObject): Promise<void> => {
    const res = await api.request({
      method: 'POST',
      url: `/api/v1/${path}`,
      payload: JSON.stringify(obj),
      headers: json,
    });
    assert.equal(res.statusCode, 201, res.body);
  };
  const namespace = async (name: string): Promise<Namespace | undefined> => {
    const res = await api.request({ method: 'GET', url: `/api/v1/namespaces/${name}` });
    return res.statusCode === 404 ? undefined : (JSON.parse(res.body) as Namespace);
  };
  const names = async (resource: string, ns: string): Promise<string[]> => {
    const storage = api.raw.versionedResourcesStorageMap['v1']?.[resource];
    assert.ok(storage !== undefined && isLister(storage));
    const list = await storage.list(internalContext({ namespace: ns }), {});
    return list.items.map((i) => i.metadata?.name ?? '').sort();
  };
  const cm = (name: string, meta: Record<string, unknown> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...meta },
    data: { k: 'v' },
  });
  const secret = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name },
    stringData: { k: 'v' },
  });

  before(async () => {
    api = await admittedCoreAPI();
    const made = newNamespaceController([api.admitted], {
      logger,
      workers: 2,
      deletionGracePeriodMs: 0,
      remainingDelayMs: () => 20,
    });
    assert.ok(made !== undefined);
    controller = made;
    controller.run();
  });
  after(async () => {
    await controller.close();
    await api.close();
  });

  it('empties a deleted namespace, finalizes it, and the namespace goes', async () => {
    for (const n of ['team', 'other'])
      await create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } });
    for (const n of ['a', 'b', 'c']) await create('namespaces/team/configmaps', cm(n));
    for (const n of ['s1', 's2']) await create('namespaces/team/secrets', secret(n));
    await create('namespaces/other/configmaps', cm('keep'));

    const res = await api.request({ method: 'DELETE', url: '/api/v1/namespaces/team' });
    assert.equal(res.statusCode, 200);
    assert.equal((JSON.parse(res.body) as Namespace).status?.phase, 'Terminating');
    await waitFor('namespace team to go', async () => (await namespace('team')) === undefined);

    assert.deepEqual(await names('configmaps', 'team'), []);
    assert.deepEqual(await names('secrets', 'team'), []);
    assert.deepEqual(await names('configmaps', 'other'), ['keep']);
    assert.equal((await namespace('other'))?.status?.phase, 'Active');
  });

  it('keeps a namespace Terminating while an object in it has a finalizer, then finishes', async () => {
    await create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'held' } });
    await create('namespaces/held/configmaps', cm('pinned', { finalizers: ['example.com/hold'] }));
    await create('namespaces/held/secrets', secret('loose'));
    assert.equal((await api.request({ method: 'DELETE', url: '/api/v1/namespaces/held' })).statusCode, 200);

    const conditionsOf = async (): Promise<Record<string, string>> =>
      Object.fromEntries(
        ((await namespace('held'))?.status?.conditions ?? []).map((c) => [
          c.type,
          `${c.status} ${c.reason ?? ''}: ${c.message ?? ''}`,
        ]),
      );
    await waitFor(
      'the finalizer condition',
      async () => (await conditionsOf())['NamespaceFinalizersRemaining']?.startsWith('True') === true,
    );
    assert.deepEqual(await conditionsOf(), {
      NamespaceDeletionDiscoveryFailure: 'False ResourcesDiscovered: All resources successfully discovered',
      NamespaceDeletionGroupVersionParsingFailure:
        'False ParsedGroupVersions: All legacy kube types successfully parsed',
      NamespaceDeletionContentFailure:
        'False ContentDeleted: All content successfully deleted, may be waiting on finalization',
      NamespaceContentRemaining:
        'True SomeResourcesRemain: Some resources are remaining: configmaps. has 1 resource instances',
      NamespaceFinalizersRemaining:
        'True SomeFinalizerRemain: Some finalizers are remaining: example.com/hold in 1 resource instances',
    });
    assert.deepEqual(await names('secrets', 'held'), []);

    // It keeps waiting: several passes later the namespace is still there, still finalized by us.
    await delay(150);
    const held = await namespace('held');
    assert.equal(held?.status?.phase, 'Terminating');
    assert.deepEqual(held.spec?.finalizers, ['kubernetes']);
    const pinned = await api.request({ method: 'GET', url: '/api/v1/namespaces/held/configmaps/pinned' });
    assert.match((JSON.parse(pinned.body) as KubeObject).metadata?.deletionTimestamp ?? '', /Z$/);
    const refused = await api.request({
      method: 'POST',
      url: '/api/v1/namespaces/held/configmaps',
      payload: JSON.stringify(cm('late')),
      headers: json,
    });
    assert.equal(refused.statusCode, 403);

    const release = await api.request({
      method: 'PATCH',
      url: '/api/v1/namespaces/held/configmaps/pinned',
      payload: '{"metadata":{"finalizers":null}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(release.statusCode, 200, release.body);
    await waitFor('namespace held to go', async () => (await namespace('held')) === undefined);
    assert.deepEqual(await names('configmaps', 'held'), []);
  });

  it('starts from a post-start hook and stops on the shutdown signal and on close', async () => {
    const second = newNamespaceController([api.admitted], { logger, deletionGracePeriodMs: 0 });
    assert.ok(second !== undefined);
    const shutdown = new AbortController();
    await controllerHook(second)({ signal: shutdown.signal, logger });
    await create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'brief' } });
    assert.equal((await api.request({ method: 'DELETE', url: '/api/v1/namespaces/brief' })).statusCode, 200);
    await waitFor('namespace brief to go', async () => (await namespace('brief')) === undefined);
    shutdown.abort();
    await second.close();
    await second.close();
    // Closed for good: running again does nothing.
    second.run();
    assert.ok(sink.lines.some((l) => l.includes('Shutting down controller')));
  });

  it('is not made when namespaces are not served', () => {
    assert.equal(newNamespaceController([], { logger }), undefined);
  });
});
