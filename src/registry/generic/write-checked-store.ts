// A Store whose creates and updates pass a check first: on an update, of the object the update
// computes (after the patch or the PUT body is applied to the stored one), inside the Store's retry
// loop. RBAC's escalation checks use it, and the admissionregistration stores, which load the CEL
// library before their synchronous validation compiles expressions.
import type { KubeObject } from '../../api/meta.js';
import type { UpdateRequest, ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type { CreateOptions } from '../rest/options.js';
import { Store } from './store.js';

/** One write's new object: `old` is null on create (and on an update that creates). */
export interface WriteRequest<T> {
  readonly obj: T;
  readonly old: T | null;
  /** The name in the URL: '' on create. */
  readonly name: string;
}

/** Throws to refuse the write; may wait (for a library to load, an authorizer to answer). */
export type WriteCheck = (ctx: RequestContext, req: WriteRequest<KubeObject>) => Promise<void>;

export class WriteCheckedStore<T extends KubeObject> extends Store<T> {
  readonly #check: WriteCheck;

  constructor(store: Store<T>, check: WriteCheck) {
    super(store.core);
    this.#check = check;
  }

  override async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<T> {
    await this.#check(ctx, { obj, old: null, name: '' });
    return super.create(ctx, obj, opts);
  }

  override update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: T; created: boolean }> {
    const inner = req.objInfo;
    return super.update(ctx, name, {
      ...req,
      objInfo: {
        preconditions: () => inner.preconditions(),
        updatedObject: async (c, old) => {
          const obj = await inner.updatedObject(c, old);
          await this.#check(c, { obj, old, name });
          return obj;
        },
      },
    });
  }
}
