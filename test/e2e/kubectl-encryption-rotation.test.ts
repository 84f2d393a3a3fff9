// kube's key rotation procedure for encryption at rest with the real kubectl against Capstan
// processes on one data dir: write secrets under key1; add key2 and restart; make key2 first and
// restart; `kubectl get secrets -A -o json | kubectl replace -f -` (kubectl validating the List's
// items against the protobuf /openapi/v2); drop key1 and restart. The SQLite file shows which key
// encrypted each secret; kubectl always reads plaintext.
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
import { kubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';

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
    body: (
      run: (args: string[], input?: string) => Promise<string>,
      raw: (args: string[], input?: string) => Promise<KubectlResult>,
    ) => Promise<void>,
    data = dataDir,
  ): Promise<void> => {
    await writeEncryptionConfig(configPath, ['secrets'], providers);
    const capstan: CapstanProcess = await startCapstanProcess({
      dataDir: data,
      args: [`--encryption-provider-config=${configPath}`],
    });
    const raw = (args: string[], input?: string): Promise<KubectlResult> =>
      kubectl(args, { kubeconfig: capstan.kubeconfigPath, ...(input === undefined ? {} : { input }) });
    const run = async (args: string[], input?: string): Promise<string> => {
      const r = await raw(args, input);
      assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
      return r.stdout;
    };
    try {
      await body(run, raw);
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
      // kubectl validates the List's items against /openapi/v2, fetched in protobuf.
      const replaced = await run(['replace', '-f', '-'], await run(['get', 'secrets', '-A', '-o', 'json']));
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

  it('`kubectl replace -f -` validates a List of secrets against the protobuf /openapi/v2', async () => {
    await withServer(
      [{ kind: 'aescbc', keys: [newKey('key3')] }, 'identity'],
      async (run, raw) => {
        await run(['create', 'secret', 'generic', 'three', `--from-literal=password=${value}`]);
        const list = JSON.parse(await run(['get', 'secrets', '-A', '-o', 'json'])) as {
          kind: string;
          items: Record<string, unknown>[];
        };
        assert.equal(list.kind, 'List');
        // An unknown field in an item fails in kubectl, before any request writes.
        const bad = structuredClone(list);
        const [first] = bad.items;
        assert.ok(first !== undefined);
        first['bogus'] = true;
        const refused = await raw(['replace', '-f', '-'], JSON.stringify(bad));
        assert.equal(refused.code, 1);
        assert.match(
          refused.stderr,
          /error validating data: ValidationError\(Secret\): unknown field "bogus" in io\.k8s\.api\.core\.v1\.Secret/,
        );
        const replaced = await run(['replace', '-f', '-'], JSON.stringify(list));
        assert.match(replaced, /^secret\/three replaced$/m);
      },
      join(dir, 'literal'),
    );
  });
});
