// The etcd compactor of k8s.io/apiserver/pkg/storage/etcd3/compact.go, coordinated between API
// servers through one key: `compact_rev_key`'s version is a logical clock. Each interval a server
// runs txn(version(compact_rev_key) == its clock → put(rev seen last interval), else get); only the
// server whose txn succeeds compacts, to the revision it saw one interval ago, so etcd keeps at
// least one interval of history and is compacted about once per interval however many servers run.
// Several compactors in one process are harmless (the txn arbitrates), so none is deduplicated.
import type { Etcd3Backend } from './etcd-backend.js';
import type { EtcdClient } from './etcd-client.js';
import { EtcdRpcError } from './grpc-errors.js';
import { headerRevision, keyBytes } from './kv-convert.js';
import { compareResult, compareTarget, int64ToNumber } from './rpc-types.js';

export const compactRevKey = 'compact_rev_key';

export type CompactorOptions = ({ readonly backend: Etcd3Backend } | { readonly client: EtcdClient }) & {
  /** Milliseconds between compactions (kube's --etcd-compaction-interval, 5m); 0 disables. */
  readonly intervalMs: number;
  /** Called after every successful step with the newest compacted revision known (0 if none). */
  readonly onStep?: (step: CompactStep) => void;
  readonly onError?: (err: Error) => void;
};

/** What one server knows between steps: the key's version it expects and the revision it saw. */
export interface CompactState {
  readonly version: number;
  readonly revision: number;
}

export interface CompactStep extends CompactState {
  /** The revision this step compacted to, or 0 when another server holds this interval. */
  readonly compacted: number;
  /** The newest compaction recorded in compact_rev_key (by any server), when known. */
  readonly compactRevision: number;
}

/** One round of kube's compact(): CAS on the key's version, compact on success. */
export async function compactStep(client: EtcdClient, state: CompactState): Promise<CompactStep> {
  const key = keyBytes(compactRevKey);
  const res = await client.call('txn', {
    compare: [{ result: compareResult.EQUAL, target: compareTarget.VERSION, key, version: state.version }],
    success: [{ request_put: { key, value: Buffer.from(String(state.revision)) } }],
    failure: [{ request_range: { key } }],
  });
  const revision = headerRevision(res);
  if (!res.succeeded) {
    // Another server moved the clock (or the key was deleted: version 0 starts it again).
    const kv = res.responses[0]?.response_range?.kvs[0];
    const recorded = kv === undefined ? 0 : Number(kv.value.toString('utf8'));
    const version = kv === undefined ? 0 : int64ToNumber(kv.version);
    return {
      version,
      revision,
      compacted: 0,
      compactRevision: Number.isSafeInteger(recorded) ? recorded : 0,
    };
  }
  const version = state.version + 1;
  // The first successful round only records a revision: nothing is compacted on bootstrap.
  if (state.revision === 0) return { version, revision, compacted: 0, compactRevision: 0 };
  try {
    await client.call('compact', { revision: state.revision });
  } catch (err) {
    if (!(err instanceof EtcdRpcError && err.isCompacted)) throw err;
  }
  return { version, revision, compacted: state.revision, compactRevision: state.revision };
}

/** Starts the compaction loop; the returned function stops it (after a step in flight). */
export function startCompactor(opts: CompactorOptions): () => Promise<void> {
  const client = 'backend' in opts ? opts.backend.etcdClient : opts.client;
  if (opts.intervalMs <= 0) return () => Promise.resolve();
  let state: CompactState = { version: 0, revision: 0 };
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> = Promise.resolve();
  const tick = (): void => {
    timer = null;
    inFlight = compactStep(client, state)
      .then((step) => {
        state = { version: step.version, revision: step.revision };
        opts.onStep?.(step);
      })
      .catch((err: unknown) => {
        // As kube: log and try again next interval with what we knew.
        opts.onError?.(err instanceof Error ? err : new Error(String(err)));
      })
      .finally(() => {
        if (!stopped) schedule();
      });
  };
  const schedule = (): void => {
    timer = setTimeout(tick, opts.intervalMs);
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    await inFlight;
  };
}
