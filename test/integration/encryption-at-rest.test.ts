// Encryption at rest through the whole server on SQLite: the stored rows hold ciphertext with the
// provider's prefix and no plaintext while the API answers plaintext; kube's key rotation procedure
// (add a key, make it first, rewrite every secret, drop the old key); a value whose key is gone
// answers a clear Status; automatic reload, its health check and metrics; bad configs stop a start.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { main } from '../../src/cmd/capstan.js';
import {
  newKey,
  writeEncryptionConfig,
  type TestProvider,
} from '../../src/server/encryption/testing/encryption-configs.js';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';

const password = Buffer.from('hunter2-hunter2').toString('base64');
const secret = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  data: { password },
});
const secretsPath = '/api/v1/namespaces/default/secrets';

/** The newest stored value of each key under a prefix, read from the SQLite file itself. */
function rawRows(dataDir: string, prefix: string): Map<string, Buffer> {
  const db = new Database(join(dataDir, 'capstan.db'), { readonly: true });
  try {
    const rows = db
      .prepare<[string], { name: string; value: Buffer }>(
        'SELECT name, value FROM kv_log WHERE name >= ? AND deleted = 0 ORDER BY id',
      )
      .all(prefix)
      .filter((r) => r.name.startsWith(prefix));
    return new Map(rows.map((r) => [r.name, r.value]));
  } finally {
    db.close();
  }
}

/** Every value ever stored (history included) that still holds the plaintext. */
function plaintextRows(dataDir: string): string[] {
  const db = new Database(join(dataDir, 'capstan.db'), { readonly: true });
  try {
    const rows = db.prepare<[], { name: string; value: Buffer }>('SELECT name, value FROM kv_log').all();
    return rows.filter((r) => r.name.includes('/secrets/') && r.value.includes(password)).map((r) => r.name);
  } finally {
    db.close();
  }
}

describe('encryption at rest on SQLite', () => {
  let dataDir = '';
  let configPath = '';
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'capstan-ear-'));
    configPath = join(dataDir, 'encryption.yaml');
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = async (providers: readonly TestProvider[], reload = false): Promise<InProcessServer> => {
    await writeEncryptionConfig(configPath, ['secrets'], providers);
    return startInProcess((o) => {
      o.storage.backend = 'sqlite';
      o.storage.dataDir = dataDir;
      o.storage.encryptionProviderConfigFilepath = configPath;
      o.storage.encryptionProviderConfigAutomaticReload = reload;
    });
  };

  it('stores ciphertext, serves plaintext, and survives kube’s rotation procedure', async () => {
    const key1 = newKey('key1');
    const key2 = newKey('key2');
    let s = await start([{ kind: 'aescbc', keys: [key1] }, 'identity']);
    try {
      await s.json(secretsPath, { method: 'POST', body: secret('s1') });
      await s.json('/api/v1/namespaces/default/configmaps', {
        method: 'POST',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { a: password } },
      });
      const got = await s.json<{ data: { password: string } }>(`${secretsPath}/s1`);
      assert.equal(got.data.password, password);
    } finally {
      await s.stop();
    }
    let rows = rawRows(dataDir, '/registry/');
    const s1 = rows.get('/registry/secrets/default/s1');
    assert.ok(s1?.toString('latin1').startsWith('k8s:enc:aescbc:v1:key1:'));
    assert.deepEqual(plaintextRows(dataDir), []);
    assert.ok(
      rows.get('/registry/configmaps/default/c1')?.includes(password),
      'configmaps are not in the config',
    );

    // 1. Add the new key second; restart. 2. Make it first; restart. 3. Rewrite every secret.
    s = await start([{ kind: 'aescbc', keys: [key1, key2] }, 'identity']);
    await s.stop();
    s = await start([{ kind: 'aescbc', keys: [key2, key1] }, 'identity']);
    try {
      const list = await s.json<{ items: { metadata: { name: string } }[] }>(secretsPath);
      for (const item of list.items) {
        await s.json(`${secretsPath}/${item.metadata.name}`, { method: 'PUT', body: item });
      }
    } finally {
      await s.stop();
    }
    rows = rawRows(dataDir, '/registry/secrets/');
    assert.ok(
      rows.get('/registry/secrets/default/s1')?.toString('latin1').startsWith('k8s:enc:aescbc:v1:key2:'),
    );
    // 4. Drop the old key: everything still reads.
    s = await start([{ kind: 'aescbc', keys: [key2] }, 'identity']);
    try {
      assert.equal(
        (await s.json<{ data: { password: string } }>(`${secretsPath}/s1`)).data.password,
        password,
      );
    } finally {
      await s.stop();
    }
    assert.deepEqual(plaintextRows(dataDir), []);
  });

  it('a value whose key is gone answers 500 InternalError naming the problem', async () => {
    const s = await start([{ kind: 'aescbc', keys: [newKey('key9')] }, 'identity']);
    try {
      await s.json(secretsPath, { method: 'POST', body: secret('fresh') });
      const res = await s.request(`${secretsPath}/s1`);
      assert.equal(res.status, 500);
      const status = JSON.parse(res.body) as { reason: string; message: string; code: number };
      assert.equal(status.reason, 'InternalError');
      assert.match(
        status.message,
        /^Internal error occurred: .*no matching key was found for the provided AES transformer$/,
      );
      // kubectl lists in pages, which go to storage while the watch cache cannot initialise (as in
      // kube, whose unpaged lists answer 429 meanwhile).
      const list = await s.request(`${secretsPath}?limit=500`);
      assert.equal(list.status, 500);
      assert.match(list.body, /no matching key was found for the provided AES transformer/);
    } finally {
      await s.stop();
    }
    const gone = await start(['identity']);
    try {
      const res = await gone.request(`${secretsPath}/s1`);
      assert.equal(res.status, 500);
      assert.match((JSON.parse(res.body) as { message: string }).message, /no matching prefix found$/);
    } finally {
      await gone.stop();
    }
  });

  it('reloads a changed config while serving; health check and metrics follow', async () => {
    const key1 = newKey('key1');
    const s = await start([{ kind: 'aesgcm', keys: [key1] }], true);
    try {
      await s.json(secretsPath, { method: 'POST', body: secret('before-reload') });
      await writeEncryptionConfig(
        configPath,
        ['secrets'],
        [
          { kind: 'secretbox', keys: [newKey('sb')] },
          { kind: 'aesgcm', keys: [key1] },
        ],
      );
      const deadline = Date.now() + 10_000;
      for (;;) {
        const metrics = (await s.request('/metrics')).body;
        if (
          metrics.includes('apiserver_encryption_config_controller_automatic_reloads_total{status="success"')
        )
          break;
        assert.ok(Date.now() < deadline, 'no reload within 10s');
        await sleep(50);
      }
      await s.json(secretsPath, { method: 'POST', body: secret('after-reload') });
      assert.equal(
        (await s.json<{ data: { password: string } }>(`${secretsPath}/before-reload`)).data.password,
        password,
      );
      const kms = await s.request('/healthz/kms-providers');
      assert.deepEqual({ status: kms.status, body: kms.body }, { status: 200, body: 'ok' });
      assert.match((await s.request('/readyz?verbose')).body, /\[\+\]kms-providers ok/);
      const metrics = (await s.request('/metrics')).body;
      assert.match(
        metrics,
        /apiserver_storage_transformation_operations_total\{transformation_type="to_storage",transformer_prefix="k8s:enc:secretbox:v1:",status="OK"\} 1/,
      );
      assert.match(
        metrics,
        /apiserver_storage_transformation_duration_seconds_count\{transformation_type="from_storage",transformer_prefix="k8s:enc:aesgcm:v1:"\} \d+/,
      );
      assert.match(
        metrics,
        /apiserver_encryption_config_controller_last_config_info\{apiserver_id_hash="",hash="k8s:enc:unstable:1:[0-9a-f]{64}"\} 1/,
      );
    } finally {
      await s.stop();
    }
    const rows = rawRows(dataDir, '/registry/secrets/default/');
    assert.ok(
      rows
        .get('/registry/secrets/default/before-reload')
        ?.toString('latin1')
        .startsWith('k8s:enc:aesgcm:v1:key1:'),
    );
    assert.ok(
      rows
        .get('/registry/secrets/default/after-reload')
        ?.toString('latin1')
        .startsWith('k8s:enc:secretbox:v1:sb:'),
    );
  });

  it('an invalid config stops the start with kube’s error naming the field', async () => {
    const run = async (args: string[]): Promise<{ code: number; stderr: string }> => {
      let stderr = '';
      const code = await main(args, {
        stdout: { write: () => true },
        stderr: { write: (t: string) => (stderr += t) },
        waitForSignal: () => new Promise(() => undefined),
      });
      // The command's log lines (the AnonymousAuth warning) go there too; the error is what is asked.
      const klogLine = /^[IWE]\d{4} /;
      return {
        code,
        stderr: stderr
          .split(/(?<=\n)/)
          .filter((l) => !klogLine.test(l))
          .join(''),
      };
    };
    await writeEncryptionConfig(
      configPath,
      ['secrets'],
      [{ kind: 'aesgcm', keys: [{ name: 'k', secret: 'c2hvcnQ=' }] }],
    );
    assert.deepEqual(await run([`--data-dir=${dataDir}`, `--encryption-provider-config=${configPath}`]), {
      code: 1,
      stderr:
        'Error: error while parsing file: resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 5, expected one of [16 24 32]\n',
    });
    assert.deepEqual(await run([`--data-dir=${dataDir}`, '--encryption-provider-config-automatic-reload']), {
      code: 1,
      stderr:
        'Error: --encryption-provider-config-automatic-reload must be set with --encryption-provider-config\n',
    });
  });
});
