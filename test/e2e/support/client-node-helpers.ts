// Helpers for tests that drive @kubernetes/client-node: the Status inside its ApiException, polling
// until informer callbacks have caught up, an informer that records what it is told, and the first
// event of a raw watch.
import {
  ApiException,
  CoreV1Api,
  Watch,
  makeInformer,
  type Informer,
  type KubeConfig,
  type ObjectCache,
  type V1ConfigMap,
} from '@kubernetes/client-node';

export interface StatusSummary {
  readonly code: number;
  readonly reason: string | undefined;
  readonly message: string | undefined;
}

/** Reads the kube Status out of a failed call (client-node keeps the body as text); rethrows others. */
export function statusOf(err: unknown): StatusSummary {
  if (!(err instanceof ApiException)) throw err;
  const body: unknown = err.body;
  const status = (typeof body === 'string' ? JSON.parse(body) : body) as {
    code?: number;
    reason?: string;
    message?: string;
  };
  if (status.code !== err.code)
    throw new Error(`Status code ${String(status.code)} in a ${err.code} response`);
  return { code: err.code, reason: status.reason, message: status.message };
}

/** Polls `done` every 20 ms until it holds; fails after `timeoutMs` showing `seen()`. */
export async function eventually(
  done: () => boolean | Promise<boolean>,
  what: string,
  opts: { readonly seen?: () => unknown; readonly timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  while (!(await done())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}; saw ${JSON.stringify(opts.seen?.())}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface RecordingInformer {
  readonly informer: Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>;
  /** Errors reported to the informer's error callbacks, other than the abort that stop() causes. */
  readonly errors: unknown[];
  /** How many times the informer listed. */
  lists(): number;
  /** Waits until each `type name data-json` line has been reported, then forgets what was reported. */
  settled(expected: readonly string[]): Promise<void>;
  /** `name@resourceVersion` of each object the informer holds, sorted. */
  cacheState(): string[];
  /** The same for what the server lists now. */
  serverState(): Promise<string[]>;
}

const state = (items: readonly V1ConfigMap[]): string[] =>
  items.map((o) => `${o.metadata?.name ?? ''}@${o.metadata?.resourceVersion ?? ''}`).sort();

/** A makeInformer() over the ConfigMaps of one namespace that records its callbacks. */
export function recordConfigMapInformer(kc: KubeConfig, namespace: string): RecordingInformer {
  const api = kc.makeApiClient(CoreV1Api);
  const events: string[] = [];
  const errors: unknown[] = [];
  let lists = 0;
  const informer = makeInformer(kc, `/api/v1/namespaces/${namespace}/configmaps`, () => {
    lists++;
    return api.listNamespacedConfigMap({ namespace });
  });
  for (const type of ['add', 'update', 'delete'] as const) {
    informer.on(type, (obj: V1ConfigMap) => {
      events.push(`${type} ${obj.metadata?.name ?? ''} ${JSON.stringify(obj.data ?? {})}`);
    });
  }
  informer.on('error', (err: unknown) => {
    // stop() aborts the watch request, and client-node reports that abort as an error.
    if (!(err instanceof Error && err.name === 'AbortError')) errors.push(err);
  });
  return {
    informer,
    errors,
    lists: () => lists,
    settled: async (expected) => {
      await eventually(() => expected.every((e) => events.includes(e)), `events ${expected.join(', ')}`, {
        seen: () => events,
      });
      events.length = 0;
    },
    cacheState: () => state(informer.list(namespace)),
    serverState: async () => state((await api.listNamespacedConfigMap({ namespace })).items),
  };
}

export interface WatchEvent {
  readonly type: string;
  readonly object: { code?: number; reason?: string; message?: string };
}

/** The first event of a watch on `path` from `resourceVersion`, as client-node's Watch delivers it. */
export async function firstWatchEvent(
  kc: KubeConfig,
  path: string,
  resourceVersion: string,
): Promise<WatchEvent> {
  let controller: AbortController | undefined;
  const event = new Promise<WatchEvent>((resolve, reject) => {
    void new Watch(kc)
      .watch(
        path,
        { resourceVersion },
        (type: string, object: WatchEvent['object']) => {
          resolve({ type, object });
        },
        (err: unknown) => {
          reject(err instanceof Error ? err : new Error(`watch ended before any event: ${String(err)}`));
        },
      )
      .then((c) => (controller = c));
  });
  try {
    return await event;
  } finally {
    controller?.abort();
  }
}
