// bench/encryption: secrets created and read through KvStore over SQLite with each encryption
// provider, next to identity (no encryption) in the same run, each on its own file in one temp
// directory. The transformers are built from an EncryptionConfiguration, as the server builds them.
// Providers take turns in rounds and each figure is the median round, so that load from elsewhere
// on the machine lands on all of them alike.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../src/api/meta.js';
import { buildTransformerOverrides } from '../src/server/encryption/build-transformers.js';
import { decodeEncryptionConfiguration } from '../src/server/encryption/decode-config.js';
import { SqliteBackend } from '../src/storage/backends/sqlite/sqlite-backend.js';
import { KvStore } from '../src/storage/kv-store/kv-store.js';
import { StaticTransformers } from '../src/storage/value/resource-transformers.js';
import type { Transformer } from '../src/storage/value/transformer.js';
import { median, printTable, sequential, type Row } from './support.js';

const rounds = 9;
const createsPerRound = 200;
const getsPerRound = 4000;
const listsPerRound = 3;
const secrets = { group: '', resource: 'secrets' };
const providers = ['identity', 'aesgcm', 'aescbc', 'secretbox'] as const;
type Provider = (typeof providers)[number];
const measures = ['create', 'get', 'list'] as const;
type Measure = (typeof measures)[number];

/** A ~2.5 KB secret: a TLS pair's worth of base64. */
function secretLike(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'bench', labels: { app: 'bench' } },
    type: 'kubernetes.io/tls',
    data: { 'tls.crt': randomBytes(1100).toString('base64'), 'tls.key': randomBytes(700).toString('base64') },
  };
}

function transformerFor(provider: Provider): Transformer {
  const keys = [{ name: 'key1', secret: randomBytes(32).toString('base64') }];
  const config = JSON.stringify({
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'EncryptionConfiguration',
    resources: [
      {
        resources: ['secrets'],
        providers: [provider === 'identity' ? { identity: {} } : { [provider]: { keys } }],
      },
    ],
  });
  return new StaticTransformers(
    buildTransformerOverrides(decodeEncryptionConfiguration(config)),
  ).transformerForResource(secrets);
}

interface Subject {
  readonly provider: Provider;
  readonly backend: SqliteBackend;
  readonly store: KvStore;
  readonly rates: Record<Measure, number[]>;
  created: number;
}

async function round(s: Subject): Promise<void> {
  const first = s.created;
  const objects = Array.from({ length: createsPerRound }, (_, i) => secretLike(`s-${first + i}`));
  const create = await sequential(createsPerRound, (i) =>
    s.store.create(`/secrets/bench/s-${first + i}`, objects[i] as KubeObject),
  );
  s.created += createsPerRound;
  const get = await sequential(getsPerRound, (i) => s.store.get(`/secrets/bench/s-${i % s.created}`));
  const list = await sequential(listsPerRound, () => s.store.getList('/secrets/bench/', { recursive: true }));
  s.rates.create.push(create.perSecond);
  s.rates.get.push(get.perSecond);
  s.rates.list.push(list.perSecond);
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-bench-encryption-'));
  const subjects: Subject[] = [];
  try {
    for (const provider of providers) {
      const backend = await SqliteBackend.open({
        path: join(dir, `${provider}.db`),
        compaction: { intervalMs: 0 },
      });
      const store = new KvStore<KubeObject>({
        backend,
        groupResource: secrets,
        transformer: transformerFor(provider),
      });
      subjects.push({ provider, backend, store, rates: { create: [], get: [], list: [] }, created: 0 });
    }
    for (let r = 0; r < rounds; r++) for (const s of subjects) await round(s);
    const [identity, ...encrypted] = subjects as [Subject, ...Subject[]];
    const total = rounds * createsPerRound;
    const label: Record<Measure, string> = {
      create: `create secret (${total})`,
      get: `get secret (${rounds * getsPerRound})`,
      list: `list ${createsPerRound}…${total} secrets (${rounds * listsPerRound})`,
    };
    const rows: Row[] = encrypted.flatMap((s) =>
      measures.map((m) => ({
        what: `${s.provider}: ${label[m]}`,
        capstan: median(s.rates[m]),
        baseline: median(identity.rates[m]),
      })),
    );
    printTable(
      'encryption at rest: ~2.5 KB secrets through KvStore + SQLite, each provider vs identity (median of 9 rounds)',
      'identity',
      rows,
    );
  } finally {
    for (const s of subjects) await s.backend.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
