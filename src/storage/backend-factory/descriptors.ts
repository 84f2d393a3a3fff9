// The named backends the factory can open, one descriptor per StorageType.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Backend } from '../kv/backend.js';
import { SqliteBackend } from '../backends/sqlite/sqlite-backend.js';
import { defaultCompactionIntervalMs } from './config.js';
import type { StorageConfigForResource, StorageType, TransportConfig } from './config.js';

/** An open backend and what closes it together with its helpers (the etcd compactor). */
export interface OpenBackend {
  readonly backend: Backend;
  close(): Promise<void>;
}

export interface BackendDescriptor {
  /** Configs with equal keys share one backend. */
  transportKey(transport: TransportConfig): string;
  open(config: StorageConfigForResource): Promise<OpenBackend>;
}

const plain = (backend: Backend): OpenBackend => ({ backend, close: () => backend.close() });

/** The SQLite database file inside --data-dir. */
export const sqliteFileName = 'capstan.db';

const sqlite: BackendDescriptor = {
  transportKey: (t) => t.dataDir ?? '.',
  open: (config) => {
    const dir = config.transport.dataDir ?? '.';
    mkdirSync(dir, { recursive: true });
    // --etcd-compaction-interval sets how often the embedded compactor runs too (0 turns it off).
    const intervalMs = config.compactionIntervalMs;
    return SqliteBackend.open({
      path: join(dir, sqliteFileName),
      ...(config.clock === undefined ? {} : { clock: config.clock }),
      ...(config.transport.image === undefined ? {} : { image: config.transport.image }),
      ...(intervalMs !== undefined ? { compaction: { intervalMs } } : {}),
    }).then(plain);
  },
};

const memory: BackendDescriptor = {
  transportKey: () => 'memory',
  open: (config) =>
    SqliteBackend.open({
      path: ':memory:',
      ...(config.clock === undefined ? {} : { clock: config.clock }),
      ...(config.transport.image === undefined ? {} : { image: config.transport.image }),
    }).then(plain),
};

const etcd3: BackendDescriptor = {
  transportKey: (t) => (t.serverList ?? []).join(','),
  open: async (config) => {
    const t = config.transport;
    const servers = t.serverList ?? [];
    if (servers.length === 0)
      throw new Error('--etcd-servers must be specified for the etcd3 storage backend');
    const tls = {
      ...(t.trustedCAFile !== undefined ? { caFile: t.trustedCAFile } : {}),
      ...(t.extraTrustedCAFile !== undefined ? { extraCaFile: t.extraTrustedCAFile } : {}),
      ...(t.certFile !== undefined ? { certFile: t.certFile } : {}),
      ...(t.keyFile !== undefined ? { keyFile: t.keyFile } : {}),
    };
    // Loaded only when asked for: the etcd client pulls in protobufjs, about 25 ms of CPU that a
    // SQLite or memory start would pay for nothing.
    const [{ Etcd3Backend }, { startCompactor }] = await Promise.all([
      import('../backends/etcd3/etcd-backend.js'),
      import('../backends/etcd3/compactor.js'),
    ]);
    const backend = await Etcd3Backend.open({ endpoints: servers, tls });
    // kube's newETCD3Storage starts the compactor with the backend; several API servers coordinate
    // through the compact_rev_key transaction, so only one of them compacts each interval.
    const stopCompactor = startCompactor({
      backend,
      intervalMs: config.compactionIntervalMs ?? defaultCompactionIntervalMs,
    });
    return {
      backend,
      close: async () => {
        await stopCompactor();
        await backend.close();
      },
    };
  },
};

export const backendDescriptors: Record<StorageType, BackendDescriptor> = { sqlite, memory, etcd3 };
