// Services over a real SQLite store for the registry tests: in memory, or in a file that a second
// environment reopens (a restart).
import type { Service } from '../../../../api/core/v1/service.js';
import type { GroupResource } from '../../../../machinery/schema/group-resource.js';
import { SqliteBackend } from '../../../../storage/backends/sqlite/sqlite-backend.js';
import { kvStoreFactory } from '../../../generic/testing/memory-rest-options.js';
import {
  undecoratedStorage,
  type RESTOptions,
  type RESTOptionsGetter,
} from '../../../generic/rest-options.js';
import type { GracefulDeleter } from '../../../rest/capabilities.js';
import type { Clock } from '../../../../machinery/time/clock.js';
import type { RepairEvent } from '../repair-ip.js';
import { parseServiceClusterIPRange } from '../service-ip-ranges.js';
import { newServiceREST, type ServiceStorage } from '../storage.js';
import type { PortRange } from '../port-range.js';

export interface ServiceEnv extends ServiceStorage {
  readonly backend: SqliteBackend;
  readonly getter: RESTOptionsGetter;
  close(): Promise<void>;
}

export interface ServiceEnvInit {
  /** A database file; in memory when unset. */
  readonly path?: string;
  readonly clusterIPRange?: string;
  readonly nodePortRange?: PortRange;
  readonly leakRepairs?: number;
  readonly endpoints?: (getter: RESTOptionsGetter) => Promise<GracefulDeleter>;
  /** Another server on the same store: the backend is shared and left open by close(). */
  readonly sharing?: ServiceEnv;
  /** The cluster IP repair's events. */
  readonly recordEvent?: (e: RepairEvent) => void;
  /** The storage's clock (the system's when unset). */
  readonly clock?: Clock;
}

const prefixes: Readonly<Record<string, string>> = { services: 'services/specs' };

export async function serviceEnv(init: ServiceEnvInit = {}): Promise<ServiceEnv> {
  const backend =
    init.sharing?.backend ??
    (await SqliteBackend.open({ path: init.path ?? ':memory:', compaction: { intervalMs: 0 } }));
  const createRawStorage = kvStoreFactory(backend);
  const getter: RESTOptionsGetter = {
    getRESTOptions(resource: GroupResource): RESTOptions {
      return {
        storageConfig: {
          type: 'sqlite',
          prefix: '/registry',
          transport: {},
          groupResource: resource,
          ...(init.clock === undefined ? {} : { clock: init.clock }),
        },
        decorator: undecoratedStorage(createRawStorage),
        enableGarbageCollection: true,
        deleteCollectionWorkers: 1,
        resourcePrefix: prefixes[resource.resource] ?? resource.resource,
        countMetricPollPeriodMs: 0,
      };
    },
  };
  const ranges = parseServiceClusterIPRange(init.clusterIPRange ?? '10.0.0.0/24').ranges;
  const endpoints = init.endpoints === undefined ? undefined : await init.endpoints(getter);
  const storage = await newServiceREST({
    restOptionsGetter: getter,
    createRawStorage,
    ...(ranges === undefined ? {} : { serviceIPRanges: ranges }),
    ...(init.nodePortRange === undefined ? {} : { nodePortRange: init.nodePortRange }),
    ...(endpoints === undefined ? {} : { endpoints }),
    ...(init.recordEvent === undefined ? {} : { recordEvent: init.recordEvent }),
    repair: { intervalMs: 0, ...(init.leakRepairs === undefined ? {} : { leakRepairs: init.leakRepairs }) },
  });
  return {
    ...storage,
    backend,
    getter,
    async close() {
      await storage.services.destroy();
      if (init.sharing === undefined) await backend.close();
    },
  };
}

export const svc = (name: string, spec: Service['spec'] = {}): Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { ports: [{ port: 80 }], selector: { app: name }, ...spec },
});
