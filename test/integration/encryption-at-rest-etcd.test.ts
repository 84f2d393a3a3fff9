// Encryption at rest through the whole server on etcd3: the values etcd holds (read with Capstan's
// own etcd client) carry the provider prefix and no plaintext; rotation rewrites them with the new
// key; the API answers plaintext throughout.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import {
  newKey,
  providerKinds,
  writeEncryptionConfig,
  type TestProvider,
} from '../../src/server/encryption/testing/encryption-configs.js';
import { Etcd3Backend } from '../../src/storage/backends/etcd3/etcd-backend.js';
import { describeWithEtcd } from '../../src/storage/backends/etcd3/testing/describe-with-etcd.js';
import { prefixRange } from '../../src/storage/kv/backend.js';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';

const password = Buffer.from('correct horse battery staple').toString('base64');
const secretsPath = '/api/v1/namespaces/default/secrets';

describeWithEtcd('encryption at rest on etcd3', (fx) => {
  let dir = '';
  let n = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-ear-etcd-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (prefix: string, providers: readonly TestProvider[]): Promise<InProcessServer> => {
    const configPath = join(dir, `config-${++n}.yaml`);
    await writeEncryptionConfig(configPath, ['secrets'], providers);
    return startInProcess((o) => {
      o.storage.backend = 'etcd3';
      o.storage.etcdServers = [...fx.etcd().endpoints];
      o.storage.prefix = prefix;
      o.storage.dataDir = join(dir, 'data');
      o.storage.encryptionProviderConfigFilepath = configPath;
    });
  };

  const raw = async (prefix: string): Promise<Map<string, Buffer>> => {
    const backend = new Etcd3Backend({ endpoints: fx.etcd().endpoints });
    try {
      const res = await backend.list(prefixRange(`${prefix}/secrets/`), {});
      return new Map(res.kvs.map((kv) => [kv.key, kv.value]));
    } finally {
      await backend.close();
    }
  };

  for (const kind of providerKinds) {
    it(`${kind}: etcd holds k8s:enc:${kind}:v1:<key>: ciphertext; rotation rewrites it`, async () => {
      const prefix = `/capstan-ear-${kind}-${Date.now().toString(36)}`;
      const key1 = newKey('key1');
      const key2 = newKey('key2');
      let s = await start(prefix, [{ kind, keys: [key1] }]);
      try {
        for (const name of ['a', 'b']) {
          await s.json(secretsPath, {
            method: 'POST',
            body: { apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { password } },
          });
        }
      } finally {
        await s.stop();
      }
      let values = await raw(prefix);
      assert.equal(values.size, 2);
      for (const v of values.values()) {
        assert.ok(v.toString('latin1').startsWith(`k8s:enc:${kind}:v1:key1:`));
        assert.ok(!v.includes(password) && !v.includes('"kind"'));
      }
      s = await start(prefix, [{ kind, keys: [key2, key1] }]);
      try {
        const list = await s.json<{ items: { metadata: { name: string } }[] }>(`${secretsPath}?limit=500`);
        for (const item of list.items) {
          await s.json(`${secretsPath}/${item.metadata.name}`, { method: 'PUT', body: item });
        }
        const got = await s.json<{ data: { password: string } }>(`${secretsPath}/a`);
        assert.equal(got.data.password, password);
      } finally {
        await s.stop();
      }
      values = await raw(prefix);
      for (const v of values.values()) assert.ok(v.toString('latin1').startsWith(`k8s:enc:${kind}:v1:key2:`));
    });
  }
});
