// A simulated cluster of three nodes on a virtual clock (startCapstan({ simulate, clock: 'virtual' }))
// and the small JSON client its integration tests share. One server per test file.
import { startCapstan, type CapstanServer } from '../../../src/index.js';

export interface Obj {
  metadata: {
    name: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
    creationTimestamp?: string;
  };
  spec?: Record<string, unknown> & {
    nodeName?: string;
    hostname?: string;
    volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[];
    containers?: { env?: { name: string }[] }[];
  };
  status?: Record<string, unknown> & {
    conditions?: { type: string; status: string; reason?: string }[];
  };
  subsets?: { addresses?: { ip: string }[]; ports?: { port: number }[] }[];
}
export interface List {
  items: Obj[];
}

export interface SimulatedServer {
  readonly server: CapstanServer;
  readonly api: <T = Obj>(
    path: string,
    init?: { method?: string; body?: unknown; patch?: boolean },
  ) => Promise<T>;
  readonly pods: (selector: string) => Promise<List>;
}

export async function startSimulated(): Promise<SimulatedServer> {
  const server = await startCapstan({ scheme: 'http', clock: 'virtual', simulate: { nodes: 3 } });
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const api = async <T = Obj>(
    path: string,
    init: { method?: string; body?: unknown; patch?: boolean } = {},
  ): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': init.patch === true ? 'application/merge-patch+json' : 'application/json',
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${path}: ${String(res.status)} ${text}`);
    return JSON.parse(text) as T;
  };
  return {
    server,
    api,
    pods: (selector) =>
      api<List>(`/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent(selector)}`),
  };
}

export const ns = '/namespaces/default';
export const names = (l: List): string[] => l.items.map((o) => o.metadata.name).sort();
export const ready = (o: Obj): boolean =>
  o.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
export const container = [{ name: 'c', image: 'busybox' }];
export const runToCompletion = { 'capstan.dev/exit-code': '0', 'capstan.dev/run-seconds': '0' };
