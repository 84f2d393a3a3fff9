// GetList as the etcd3 store does it: snapshot reads at one revision, pages that keep fetching
// (with a growing limit) until enough items match the predicate, kube's continue tokens, and the
// resourceVersion / resourceVersionMatch rules of the list API.
import type { KubeList, KubeObject, ListMeta } from '../../api/meta.js';
import { newBadRequest } from '../../machinery/errors/index.js';
import {
  continueTooOld,
  invalidResourceVersion,
  listTooOld,
  tooLargeResourceVersion,
} from '../api-errors.js';
import { decodeContinue, encodeContinue, InvalidContinueError } from '../continue-token.js';
import type { EncodedList, ListOptions } from '../interfaces.js';
import { servedFromObject } from '../encoded-reads.js';
import { spliceResourceVersion } from '../served-json.js';
import {
  CompactedError,
  FutureRevisionError,
  prefixEnd,
  type KeyRange,
  type KeyValue,
  type RangeResult,
} from '../kv/backend.js';
import {
  backendFault,
  decodeKv,
  prepareKey,
  servedJSON,
  validateMinimumResourceVersion,
  type StoreCore,
} from './store-core.js';

const maxLimit = 10000;

interface ListPlan {
  /** Read at this revision; 0 reads the current one. */
  withRev: number;
  range: KeyRange;
  /** The prefix continue tokens are relative to. */
  keyPrefix: string;
  paging: boolean;
  continuing: boolean;
}

function planList<T extends KubeObject>(core: StoreCore, key: string, opts: ListOptions<T>): ListPlan {
  let full = prepareKey(core, key);
  const recursive = opts.recursive === true;
  if (recursive && !full.endsWith('/')) full += '/';
  const range: KeyRange = recursive
    ? { start: full, end: prefixEnd(full) }
    : { start: full, end: `${full}\0` };
  const paging = (opts.limit ?? 0) > 0;
  const plan: ListPlan = { withRev: 0, range, keyPrefix: full, paging, continuing: false };
  const rv = opts.resourceVersion ?? '';

  // kube ignores continue on a non-recursive list (a single key has no second page).
  if (recursive && opts.continue !== undefined && opts.continue !== '') {
    let token: { fromKey: string; rv: number };
    try {
      token = decodeContinue(opts.continue, full);
    } catch (err) {
      if (err instanceof InvalidContinueError) throw newBadRequest(`invalid continue token: ${err.message}`);
      throw err;
    }
    if (rv !== '' && rv !== '0') {
      throw newBadRequest('specifying resource version is not allowed when using continue');
    }
    plan.range = { start: token.fromKey, end: range.end };
    plan.continuing = true;
    // rv -1: the token was issued after a compaction and continues at the latest revision.
    if (token.rv > 0) plan.withRev = token.rv;
    return plan;
  }
  if (rv === '') return plan;
  let fromRV: number;
  try {
    fromRV = core.versioner.parseResourceVersion(rv);
  } catch (err) {
    throw invalidResourceVersion((err as Error).message);
  }
  switch (opts.resourceVersionMatch ?? '') {
    case 'Exact':
      plan.withRev = fromRV;
      break;
    case 'NotOlderThan':
      break;
    case '':
      // Legacy: a limited list at a given resourceVersion is an exact read, so pages stay consistent.
      if (recursive && paging && fromRV > 0) plan.withRev = fromRV;
      break;
  }
  return plan;
}

async function readRange(
  core: StoreCore,
  plan: ListPlan,
  req: { range: KeyRange; limit: number },
): Promise<RangeResult> {
  const opts: { revision?: number; limit?: number } = {};
  if (plan.withRev > 0) opts.revision = plan.withRev;
  if (req.limit > 0) opts.limit = req.limit;
  try {
    return await core.backend.list(req.range, opts);
  } catch (err) {
    if (err instanceof CompactedError) {
      if (plan.continuing) {
        // Offer a token that resumes at the latest revision from the same key.
        let token: string | null = null;
        try {
          token = encodeContinue(req.range.start, plan.keyPrefix, -1);
        } catch {
          token = null;
        }
        throw continueTooOld(token);
      }
      throw listTooOld();
    }
    if (err instanceof FutureRevisionError) {
      throw tooLargeResourceVersion(err.requestedRevision, err.currentRevision, 0);
    }
    throw backendFault(err, req.range.start);
  }
}

export function getList<T extends KubeObject>(
  core: StoreCore,
  key: string,
  opts: ListOptions<T>,
): Promise<KubeList<T>> {
  const pred = opts.predicate;
  const filtering = pred !== undefined && !pred.empty();
  return collectList<T, T>(
    core,
    { key, opts },
    {
      filtering,
      item: (kv) => {
        const obj = decodeKv<T>(core, kv, kv.modRevision).obj as T;
        return !filtering || pred.matches(obj) ? obj : null;
      },
    },
  );
}

/**
 * getList() with every item as served JSON: the stored bytes with the resourceVersion spliced in,
 * not decoded and encoded again (a watch cache's list of many objects). A list that filters decodes
 * each object to match it, and serves the bytes of those that match.
 */
export function getListEncoded<T extends KubeObject>(
  core: StoreCore,
  key: string,
  opts: ListOptions<T>,
): Promise<EncodedList> {
  const pred = opts.predicate;
  const filtering = pred !== undefined && !pred.empty();
  return collectList<T, Buffer>(
    core,
    { key, opts },
    {
      filtering,
      item: (kv) => {
        if (!filtering) return servedJSON(core, kv).json;
        // decodeKv always has the object and its plain bytes.
        const st = decodeKv<T>(core, kv, kv.modRevision);
        const obj = st.obj as T;
        if (!pred.matches(obj)) return null;
        const served = spliceResourceVersion(st.data as Buffer, kv.modRevision);
        return (served ?? servedFromObject(obj, core.codec)).json;
      },
    },
  );
}

interface ItemsOf<I> {
  /** Whether `item` leaves some out (then no remainingItemCount). */
  readonly filtering: boolean;
  /** A stored value as a list item, or null to leave it out. */
  readonly item: (kv: KeyValue) => I | null;
}

/** The list walk of both. */
async function collectList<T extends KubeObject, I>(
  core: StoreCore,
  { key, opts }: { key: string; opts: ListOptions<T> },
  { filtering, item }: ItemsOf<I>,
): Promise<{ metadata: ListMeta; items: I[] }> {
  const plan = planList(core, key, opts);
  const limit = opts.limit ?? 0;
  const items: I[] = [];
  let batchLimit = plan.paging ? limit : 0;
  let range = plan.range;
  let lastKey = '';
  let hasMore = false;
  let currentRev = 0;

  for (;;) {
    opts.signal?.throwIfAborted();
    const res = await readRange(core, plan, { range, limit: batchLimit });
    currentRev = res.revision;
    if (res.kvs.length === 0 && res.more) throw new Error('no results were found, but the backend said more');
    if (plan.withRev === 0) plan.withRev = res.revision;
    hasMore = res.more;
    for (const kv of res.kvs) {
      if (plan.paging && items.length >= limit) {
        hasMore = true;
        break;
      }
      lastKey = kv.key;
      const it = item(kv);
      if (it !== null) items.push(it);
    }
    if (!hasMore || !plan.paging || items.length >= limit) break;
    // Not enough matches yet: fetch the next batch at the same revision, with a larger limit.
    batchLimit = Math.min(batchLimit * 2, maxLimit);
    range = { start: `${lastKey}\0`, end: range.end };
  }

  validateMinimumResourceVersion(core, minimumFor(opts), currentRev);
  const list = { metadata: {} as ListMeta, items };
  if (hasMore && plan.paging) {
    const next = encodeContinue(`${lastKey}\0`, plan.keyPrefix, plan.withRev);
    const meta: { rev: number; continue: string; remainingItemCount?: number } = {
      rev: plan.withRev,
      continue: next,
    };
    if (!filtering) {
      const counted = await core.backend
        .count(plan.range, { revision: plan.withRev })
        .catch((err: unknown) => {
          throw backendFault(err, plan.range.start);
        });
      meta.remainingItemCount = Math.max(0, counted.count - items.length);
    }
    core.versioner.updateList(list as unknown as KubeList, meta);
  } else {
    core.versioner.updateList(list as unknown as KubeList, { rev: plan.withRev });
  }
  return list;
}

/** The resourceVersion a list must be at least as new as (none for continue and Exact reads). */
function minimumFor<T extends KubeObject>(opts: ListOptions<T>): string | undefined {
  if (opts.recursive === true && opts.continue !== undefined && opts.continue !== '') return undefined;
  if (opts.resourceVersionMatch === 'Exact') return undefined;
  return opts.resourceVersion;
}
