// kube's key rotation procedure for encryption at rest with the real kubectl against Capstan
// processes on one data dir: write secrets under key1; add key2 and restart; make key2 first and
// restart; `kubectl get secrets -A -o json | kubectl replace -f -`; drop key1 and restart. The
// SQLite file shows which key encrypted each secret; kubectl always reads plaintext.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import {
  newKey,
  writeEncryptionConfig,
  type TestProvider,
} from '../../src/server/encryption/testing/encryption-configs.js';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl, locateKubectl } from './support/kubectl.js';

const value = 'hunter2-not-in-the-database';
const encoded = Buffer.from(value).toString('base64');

describe('kubectl: encryption key rotation', () => {
  let dir = '';
  let dataDir = '';
  let configPath = '';
  before(async () => {
    await locateKubectl();
    dir = await mkdtemp(join(tmpdir(), 'capstan-e2e-rotation-'));
    dataDir = join(dir, 'data');
    configPath = join(dir, 'encryption.yaml');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const withServer = async (
    providers: readonly TestProvider[],
    body: (run: (args: string[], input?: string) => Promise<string>) => Promise<void>,
    data = dataDir,
  ): Promise<void> => {
    await writeEncryptionConfig(configPath, ['secrets'], providers);
    const capstan: CapstanProcess = await startCapstanProcess({
      dataDir: data,
      args: [`--encryption-provider-config=${configPath}`],
    });
    const run = async (args: string[], input?: string): Promise<string> => {
      const r = await kubectl(args, {
        kubeconfig: capstan.kubeconfigPath,
        ...(input === undefined ? {} : { input }),
      });
      assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
      return r.stdout;
    };
    try {
      await body(run);
    } finally {
      await capstan.stop();
    }
  };

  /** Which key name each stored secret carries, from the database file. */
  const storedKeys = (): Map<string, string> => {
    const db = new Database(join(dataDir, 'capstan.db'), { readonly: true });
    try {
      const rows = db
        .prepare<[], { name: string; value: Buffer }>(
          "SELECT name, value FROM kv_log WHERE name LIKE '/registry/secrets/%' AND deleted = 0 ORDER BY id",
        )
        .all();
      for (const r of rows)
        assert.ok(!r.value.includes(encoded) && !r.value.includes(value), `${r.name} holds plaintext`);
      return new Map(
        rows.map((r) => [
          r.name,
          /^k8s:enc:aescbc:v1:([^:]+):/.exec(r.value.toString('latin1'))?.[1] ?? 'plaintext',
        ]),
      );
    } finally {
      db.close();
    }
  };

  it('rotates from key1 to key2 and every secret reads throughout', async () => {
    const key1 = newKey('key1');
    const key2 = newKey('key2');
    await withServer([{ kind: 'aescbc', keys: [key1] }, 'identity'], async (run) => {
      await run(['create', 'namespace', 'rotation']);
      await run(['create', 'secret', 'generic', 'one', `--from-literal=password=${value}`]);
      await run(['create', 'secret', 'generic', 'two', '-n', 'rotation', `--from-literal=password=${value}`]);
      assert.equal(await run(['get', 'secret', 'one', '-o', 'jsonpath={.data.password}']), encoded);
    });
    assert.deepEqual([...storedKeys().values()], ['key1', 'key1']);

    await withServer([{ kind: 'aescbc', keys: [key1, key2] }, 'identity'], async (run) => {
      assert.equal(
        await run(['get', 'secret', 'two', '-n', 'rotation', '-o', 'jsonpath={.data.password}']),
        encoded,
      );
    });
    await withServer([{ kind: 'aescbc', keys: [key2, key1] }, 'identity'], async (run) => {
      const all = await run(['get', 'secrets', '-A', '-o', 'json']);
      // kubectl validates a List against /openapi/v2 in protobuf, which Capstan does not serve yet
      // (see the todo test below); the rewrite itself is the same without validation.
      const replaced = await run(['replace', '-f', '-', '--validate=false'], all);
      assert.match(replaced, /secret\/one replaced/);
      assert.match(replaced, /secret\/two replaced/);
    });
    assert.deepEqual([...storedKeys().values()], ['key2', 'key2']);

    await withServer([{ kind: 'aescbc', keys: [key2] }, 'identity'], async (run) => {
      assert.equal(await run(['get', 'secret', 'one', '-o', 'jsonpath={.data.password}']), encoded);
      assert.equal(
        await run(['get', 'secret', 'two', '-n', 'rotation', '-o', 'jsonpath={.data.password}']),
        encoded,
      );
    });
  });

  it(
    'the literal `kubectl get secrets -A -o json | kubectl replace -f -`',
    { todo: 'kubectl validates a List against /openapi/v2 as protobuf; Capstan answers 406' },
    async () => {
      await withServer(
        [{ kind: 'aescbc', keys: [newKey('key3')] }, 'identity'],
        async (run) => {
          await run(['create', 'secret', 'generic', 'three', `--from-literal=password=${value}`]);
          await run(['replace', '-f', '-'], await run(['get', 'secrets', '-A', '-o', 'json']));
        },
        join(dir, 'literal'),
      );
    },
  );
});
