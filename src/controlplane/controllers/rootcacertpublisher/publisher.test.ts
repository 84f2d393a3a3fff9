import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { ConfigMap } from '../../../api/core/v1/config-map.js';
import { newConfigMapREST } from '../../../registry/core/configmap/storage.js';
import { newNamespaceREST, type NamespaceStorage } from '../../../registry/core/namespace/storage.js';
import type { Store } from '../../../registry/generic/store.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { internalContext } from '../../../registry/rest/context.js';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import {
  descriptionAnnotation,
  newRootCACertPublisher,
  rootCACertConfigMapName,
  rootCACertDescription,
  type RootCACertPublisher,
} from './publisher.js';

const rootCA = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await delay(10);
  }
}

describe('root-ca-cert-publisher', () => {
  let env: MemoryRESTOptions;
  let ns: NamespaceStorage;
  let cms: Store<ConfigMap>;
  let publisher: RootCACertPublisher;
  const ctx = internalContext();
  const published = (namespace: string): Promise<ConfigMap | undefined> =>
    cms.get(internalContext({ namespace }), rootCACertConfigMapName, {}).catch(() => undefined);
  const isPublished = async (namespace: string): Promise<boolean> =>
    (await published(namespace))?.data?.['ca.crt'] === rootCA;

  before(async () => {
    env = await memoryRESTOptions();
    const opts = { restOptionsGetter: env.getter };
    ns = await newNamespaceREST(opts);
    cms = await newConfigMapREST(opts);
    await ns.namespaces.create(ctx, { metadata: { name: 'early' } }, { options: {} });
    const raw: APIGroupInfo = {
      group: '',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: { v1: { namespaces: ns.namespaces, configmaps: cms } },
    };
    const made = newRootCACertPublisher([raw], {
      rootCA,
      logger: new Logger({ sink: memorySink(), verbosity: 4 }),
    });
    assert.ok(made !== undefined);
    publisher = made;
    publisher.run();
  });
  after(async () => {
    await publisher.close();
    await env.close();
  });

  it('publishes the CA with its description in existing and new namespaces', async () => {
    await waitFor('early', () => isPublished('early'));
    await ns.namespaces.create(ctx, { metadata: { name: 'team' } }, { options: {} });
    await waitFor('team', () => isPublished('team'));
    const cm = await published('team');
    assert.deepEqual(cm?.data, { 'ca.crt': rootCA });
    assert.deepEqual(cm.metadata?.annotations, { [descriptionAnnotation]: rootCACertDescription });
  });

  it('recreates it when deleted and puts its data back when changed', async () => {
    const team = internalContext({ namespace: 'team' });
    const first = await published('team');
    await cms.delete(team, rootCACertConfigMapName, { options: {} });
    await waitFor('a new one', async () => {
      const again = await published('team');
      return again !== undefined && again.metadata?.uid !== first?.metadata?.uid;
    });
    const current = await published('team');
    assert.ok(current !== undefined);
    const changed: ConfigMap = { ...current, data: { 'ca.crt': 'tampered', extra: 'x' } };
    await cms.update(team, rootCACertConfigMapName, {
      objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(changed) },
      options: {},
    });
    await waitFor('the CA back', async () => {
      const cm = await published('team');
      return cm?.data?.['ca.crt'] === rootCA && cm.data['extra'] === undefined;
    });
  });

  it('is not made without configmaps served', () => {
    const raw: APIGroupInfo = {
      group: '',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: { v1: { namespaces: ns.namespaces } },
    };
    const logger = new Logger({ sink: memorySink() });
    assert.equal(newRootCACertPublisher([raw], { rootCA, logger }), undefined);
  });
});
