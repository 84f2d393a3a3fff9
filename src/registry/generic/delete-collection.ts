// Store.DeleteCollection (k8s.io/apiserver/pkg/registry/generic/registry/store.go): list page by page
// and delete every item with `deleteCollectionWorkers` deletes in flight. Not atomic: a failure
// leaves what was already deleted deleted.
import type { KubeList, KubeObject } from '../../api/meta.js';
import { isStatusError } from '../../machinery/errors/index.js';
import type { ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type { DeleteOptions, ListOptions } from '../rest/options.js';
import { deleteObject } from './delete.js';
import { listObjects } from './list-watch.js';
import type { StoreCore } from './store-core.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';

/** Items listed per page while deleting a collection (kube's deleteCollectionPageSize). */
export const deleteCollectionPageSize = 10000;

export interface DeleteCollectionRequest {
  readonly options: DeleteOptions;
  readonly listOptions: ListOptions;
  readonly validate?: ValidateObjectFunc;
  /**
   * Run after each item this call deleted for good (kube's Store.AfterDelete hook, which its
   * DeleteCollection reaches through Store.Delete): a Service's Endpoints and allocations go.
   */
  readonly afterDelete?: (ctx: RequestContext, deleted: KubeObject) => Promise<void>;
}

/** Deletes the items with up to `workers` deletes at a time; NotFound is fine (someone else won). */
async function deleteAll<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  args: { items: readonly T[]; req: DeleteCollectionRequest },
): Promise<void> {
  const workers = Math.max(1, core.deleteCollectionWorkers);
  let next = 0;
  const failures: unknown[] = [];
  const worker = async (): Promise<void> => {
    while (failures.length === 0 && next < args.items.length) {
      const item = args.items[next++];
      if (item === undefined) return;
      // Each delete gets its own options: graceful deleters write their decisions into them.
      const options = deepCopyJSON(args.req.options);
      try {
        const out = await deleteObject(core, ctx, {
          name: item.metadata?.name ?? '',
          req: { options, ...(args.req.validate !== undefined ? { validate: args.req.validate } : {}) },
        });
        if (out.deleted) await args.req.afterDelete?.(ctx, out.object);
      } catch (err) {
        if (isStatusError(err) && err.reason === 'NotFound') continue;
        failures.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, args.items.length) }, worker));
  if (failures.length > 0) throw failures[0];
}

/** Deletes everything the list options select; returns the list of what was selected. */
export async function deleteCollection<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  req: DeleteCollectionRequest,
): Promise<KubeList<T>> {
  const listOptions: ListOptions = { ...req.listOptions };
  const hasLimit = (listOptions.limit ?? 0) > 0;
  if (!hasLimit) listOptions.limit = deleteCollectionPageSize;
  let first: KubeList<T> | null = null;
  const items: T[] = [];
  for (;;) {
    ctx.signal.throwIfAborted();
    const page = await listObjects(core, ctx, listOptions);
    items.push(...page.items);
    await deleteAll(core, ctx, { items: page.items, req });
    // A request that set its own limit gets exactly that page.
    if (hasLimit) return page;
    first ??= page;
    const cont = page.metadata.continue ?? '';
    if (cont === '') {
      // As kube's meta.SetList: the first page's list metadata, every page's items.
      first.items = items;
      return first;
    }
    listOptions.continue = cont;
    delete listOptions.resourceVersion;
    delete listOptions.resourceVersionMatch;
  }
}
