// --encryption-provider-config-automatic-reload: a changed file swaps the transformers a running
// store uses; a bad one keeps the old ones, is logged and counted; an unchanged one does nothing.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../api/meta.js';
import { SqliteBackend } from '../../storage/backends/sqlite/sqlite-backend.js';
import { KvStore } from '../../storage/kv-store/kv-store.js';
import type { TransformationObservation } from '../../storage/value/metrics.js';
import { Logger, memorySink } from '../logging/logger.js';
import { EncryptionAtRest, kmsReloadHealthCheckName } from './encryption-at-rest.js';
import { loadEncryptionConfig } from './load-config.js';
import type { EncryptionMetrics, ReloadStatus } from './metrics.js';
import { newKey, writeEncryptionConfig } from './testing/encryption-configs.js';

const secrets = { group: '', resource: 'secrets' };

function recordingMetrics(): EncryptionMetrics & {
  reloads: ReloadStatus[];
  configs: string[];
  ops: TransformationObservation[];
} {
  const m = {
    reloads: [] as ReloadStatus[],
    configs: [] as string[],
    ops: [] as TransformationObservation[],
  };
  return {
    ...m,
    recordTransformation: (o) => m.ops.push(o),
    recordAutomaticReload: (r) => m.reloads.push(r.status),
    recordLastConfig: (h) => m.configs.push(h),
  };
}

describe('encryption config automatic reload', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-enc-reload-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('swaps transformers on a good change, keeps them on a bad one', async () => {
    const path = join(dir, 'reload.yaml');
    const key1 = newKey('key1');
    const key2 = newKey('key2');
    await writeEncryptionConfig(path, ['secrets'], [{ kind: 'aesgcm', keys: [key1] }]);
    const sink = memorySink();
    const metrics = recordingMetrics();
    const ear = new EncryptionAtRest({
      path,
      loaded: await loadEncryptionConfig(path),
      automaticReload: true,
      logger: new Logger({ sink }),
      metrics,
    });
    const backend = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
    const store = new KvStore<KubeObject>({
      backend,
      groupResource: secrets,
      transformer: ear.resourceTransformers.transformerForResource(secrets),
    });
    const raw = async (name: string): Promise<string> =>
      (await backend.get(`/registry/secrets/ns/${name}`)).kv?.value.toString('latin1') ?? '';
    try {
      await store.create('/secrets/ns/a', { metadata: { name: 'a' } });
      assert.ok((await raw('a')).startsWith('k8s:enc:aesgcm:v1:key1:'));
      const reloader = ear.reloader;
      assert.ok(reloader !== undefined);
      assert.equal(await reloader.check(), 'unchanged');

      await writeEncryptionConfig(path, ['secrets'], [{ kind: 'aesgcm', keys: [key2, key1] }]);
      assert.equal(await reloader.check(), 'reloaded');
      await store.create('/secrets/ns/b', { metadata: { name: 'b' } });
      assert.ok((await raw('b')).startsWith('k8s:enc:aesgcm:v1:key2:'));
      // The old value reads, stale, and an unchanged update rewrites it with the new key.
      await store.guaranteedUpdate('/secrets/ns/a', { tryUpdate: (cur) => cur ?? {} });
      assert.ok((await raw('a')).startsWith('k8s:enc:aesgcm:v1:key2:'));

      await writeFile(
        path,
        'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources: []\n',
      );
      assert.equal(await reloader.check(), 'failed');
      assert.match(reloader.lastError?.message ?? '', /at least one resources is required/);
      assert.equal(await reloader.check(), 'unchanged', 'the same bad content is not retried');
      await store.create('/secrets/ns/c', { metadata: { name: 'c' } });
      assert.ok((await raw('c')).startsWith('k8s:enc:aesgcm:v1:key2:'), 'the old config stays in force');
      assert.equal((await store.get('/secrets/ns/a'))?.metadata?.name, 'a');
      assert.ok(sink.lines.some((l) => l.includes(`error processing encryption config file ${path}`)));
      // kube keeps its kms-providers check on the config in force; without KMS plugins it is ok.
      assert.deepEqual(
        ear.healthChecks.map((c) => c.name),
        [kmsReloadHealthCheckName],
      );
      await ear.healthChecks[0]?.check();

      assert.deepEqual(metrics.reloads, ['success', 'failure']);
      assert.equal(metrics.configs.length, 2);
      assert.ok(
        metrics.ops.some((o) => o.type === 'to_storage' && o.prefix === 'k8s:enc:aesgcm:v1:' && !o.failed),
      );
    } finally {
      await ear.close();
      await backend.close();
    }
  });

  it('notices a change to the file without being asked', async () => {
    const path = join(dir, 'watched.yaml');
    const key1 = newKey('key1');
    await writeEncryptionConfig(path, ['secrets'], [{ kind: 'secretbox', keys: [key1] }]);
    const ear = new EncryptionAtRest({
      path,
      loaded: await loadEncryptionConfig(path),
      automaticReload: true,
      logger: new Logger({ sink: memorySink() }),
      pollIntervalMs: 200,
    });
    const t = ear.resourceTransformers.transformerForResource(secrets);
    const ctx = { key: '/registry/secrets/ns/x' };
    ear.start();
    try {
      await writeEncryptionConfig(
        path,
        ['secrets'],
        [
          { kind: 'aescbc', keys: [newKey('next')] },
          { kind: 'secretbox', keys: [key1] },
        ],
      );
      const deadline = Date.now() + 5000;
      while (
        !t.transformToStorage(Buffer.from('{}'), ctx).toString('latin1').startsWith('k8s:enc:aescbc:v1:next:')
      ) {
        assert.ok(Date.now() < deadline, 'the new config was not picked up');
        await sleep(20);
      }
    } finally {
      await ear.close();
    }
  });

  it('without reload the transformers are fixed and there is no health check', async () => {
    const path = join(dir, 'static.yaml');
    await writeEncryptionConfig(path, ['secrets'], ['identity']);
    const ear = new EncryptionAtRest({
      path,
      loaded: await loadEncryptionConfig(path),
      automaticReload: false,
      logger: new Logger({ sink: memorySink() }),
    });
    assert.equal(ear.reloader, undefined);
    assert.deepEqual(ear.healthChecks, []);
    await ear.close();
  });
});
