// How admission plugins (and webhook clients) read the objects kube gives them through informer listers: any state the
// watch cache holds (resourceVersion "0", shared and frozen: plugins only read), and, only when it
// holds none, a current read, so an object created a moment ago is still found. A consistent read
// for every pod create would wait for the cache to catch up with the writes just made.
import type { KubeObject } from '../../api/meta.js';
import { isStatusError } from '../../machinery/errors/index.js';
import type { Getter } from './capabilities.js';
import type { RequestContext } from './context.js';

const isNotFound = (err: unknown): boolean => isStatusError(err) && err.reason === 'NotFound';

/** The named object as a lister has it, else as storage has it now; NotFound when neither does. */
export async function listerGet<T extends KubeObject>(
  getter: Getter,
  ctx: RequestContext,
  name: string,
): Promise<T> {
  try {
    return (await getter.get(ctx, name, { resourceVersion: '0', readOnly: true })) as T;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return (await getter.get(ctx, name, { readOnly: true })) as T;
}

/** listerGet's answer at once when the watch cache holds the object; undefined when it must be read. */
export function listerGetNow<T extends KubeObject>(
  getter: Getter,
  ctx: RequestContext,
  name: string,
): T | undefined {
  return getter.getCachedNow?.(ctx, name) as T | undefined;
}
