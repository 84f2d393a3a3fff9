// One stored kind served at another version when converting takes a call out of the process (a
// custom resource's conversion webhook): ConvertingView's shape with every conversion awaited. A
// list's items are converted together, watch events one after another in their order, and a write
// is converted to the stored version before it is stored and back for the answer. Views whose
// conversion is plain code use ConvertingView, which stays synchronous.
import type { KubeList, KubeObject } from '../../api/meta.js';
import type { Table } from '../../api/table.js';
import { isStatusError, newInternalError } from '../../machinery/errors/index.js';
import type { Watch, WatchEvent } from '../../storage/interfaces.js';
import type {
  CollectionDeleter,
  Creater,
  Getter,
  GracefulDeleter,
  Lister,
  UpdateRequest,
  Updater,
  ValidateObjectFunc,
  ValidateObjectUpdateFunc,
  Watcher,
} from '../rest/capabilities.js';
import { internalContext, type RequestContext } from '../rest/context.js';
import type { CreateOptions, DeleteOptions, GetOptions, ListOptions } from '../rest/options.js';
import type { Store } from './store.js';
import { StoreView } from './store-view.js';

/** Conversion between the served version (outer) and the stored one (inner), awaited. */
export interface AsyncVersionConversion {
  /** apiVersion and kind of the served objects and lists. */
  readonly apiVersion: string;
  readonly kind: string;
  /** A served object to the stored version; must not modify its argument. */
  toInner(ctx: RequestContext, obj: KubeObject): Promise<KubeObject>;
  /**
   * Stored objects to the served version, together (one list, one call); must not modify them.
   * `asList` says they are a list's items (errors name the list).
   */
  fromInner(ctx: RequestContext, objs: readonly KubeObject[], asList?: boolean): Promise<KubeObject[]>;
  /**
   * Checks a served object written through the main resource before it is converted (throws); its
   * warnings go to the request's.
   */
  checkServed?(ctx: RequestContext, obj: KubeObject, old: KubeObject | null): void;
}

/** The one converted object of a single-object conversion. */
async function one(conv: AsyncVersionConversion, ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
  const [out] = await conv.fromInner(ctx, [obj]);
  if (out === undefined) throw newInternalError('conversion returned no object');
  return out;
}

export class AsyncConvertingView
  extends StoreView<KubeObject, KubeObject>
  implements Getter, Lister, Watcher, Creater, Updater, GracefulDeleter, CollectionDeleter
{
  readonly #conv: AsyncVersionConversion;
  /** Converted watch objects by stored object: the cache's shared events convert once for all watchers. */
  readonly #converted = new WeakMap<KubeObject, Promise<KubeObject>>();

  constructor(inner: Store, conversion: AsyncVersionConversion) {
    super(inner, conversion);
    this.#conv = conversion;
  }

  /** A served object at the stored version (StoredVersionConverter; admission's matchPolicy Equivalent). */
  toStoredVersion(ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
    return this.#conv.toInner(ctx, obj);
  }

  fromStoredVersion(ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
    return one(this.#conv, ctx, obj);
  }

  async get(ctx: RequestContext, name: string, options: GetOptions): Promise<KubeObject> {
    return one(this.#conv, ctx, await this.inner.get(ctx, name, options));
  }

  async list(ctx: RequestContext, options: ListOptions): Promise<KubeList> {
    return this.#outList(ctx, await this.inner.list(ctx, options));
  }

  async watch(ctx: RequestContext, options: ListOptions): Promise<Watch> {
    return this.#convertWatch(ctx, await this.inner.watch(ctx, options));
  }

  async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject> {
    this.#conv.checkServed?.(ctx, obj, null);
    const inner = await this.#conv.toInner(ctx, obj);
    const created = await this.inner.create(ctx, inner, { ...opts, ...this.#outerValidate(opts.validate) });
    return one(this.#conv, ctx, created);
  }

  async update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: KubeObject; created: boolean }> {
    // The view converts what the inner store returns: the caller's promise not to keep it is not the view's.
    const { objInfo, handsOverResult: _theCallers, ...rest } = req;
    const innerReq: UpdateRequest = {
      ...rest,
      objInfo: {
        preconditions: () => objInfo.preconditions(),
        updatedObject: async (c, old) => {
          const outerOld = old === null ? null : await one(this.#conv, c, old);
          const outer = await objInfo.updatedObject(c, outerOld);
          this.#conv.checkServed?.(c, outer, outerOld);
          return this.#conv.toInner(c, outer);
        },
      },
      ...this.#outerValidate(req.createValidation),
      ...this.#outerUpdateValidate(req.updateValidation),
    };
    const { object, created } = await this.inner.update(ctx, name, innerReq);
    return { object: await one(this.#conv, ctx, object), created };
  }

  async delete(
    ctx: RequestContext,
    name: string,
    opts: { options: DeleteOptions; validate?: ValidateObjectFunc },
  ): Promise<{ object: KubeObject; deleted: boolean }> {
    const { object, deleted } = await this.inner.delete(ctx, name, {
      ...opts,
      ...this.#outerValidate(opts.validate),
    });
    return { object: object.kind === 'Status' ? object : await one(this.#conv, ctx, object), deleted };
  }

  async deleteCollection(
    ctx: RequestContext,
    opts: { options: DeleteOptions; listOptions: ListOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeList> {
    const list = await this.inner.deleteCollection(ctx, { ...opts, ...this.#outerValidate(opts.validate) });
    return this.#outList(ctx, list);
  }

  /** The inner store's table convertor is the served version's; rows carry the served objects. */
  convertToTable(
    ctx: RequestContext,
    obj: KubeObject | KubeList,
    opts: { includeObject?: 'None' | 'Object' | 'Metadata' },
  ): Table {
    return this.inner.convertToTable(ctx, obj, opts);
  }

  async #outList(ctx: RequestContext, list: KubeList): Promise<KubeList> {
    const items = list.items.length === 0 ? [] : await this.#conv.fromInner(ctx, list.items, true);
    return { ...list, apiVersion: this.#conv.apiVersion, kind: `${this.#conv.kind}List`, items };
  }

  /** Admission sees the served version, as it does in kube. */
  #outerValidate(validate: ValidateObjectFunc | undefined): {
    validate?: ValidateObjectFunc;
    createValidation?: ValidateObjectFunc;
  } {
    if (validate === undefined) return {};
    const wrapped: ValidateObjectFunc = async (c, obj) => validate(c, await one(this.#conv, c, obj));
    return { validate: wrapped, createValidation: wrapped };
  }

  #outerUpdateValidate(validate: ValidateObjectUpdateFunc | undefined): {
    updateValidation?: ValidateObjectUpdateFunc;
  } {
    if (validate === undefined) return {};
    return {
      updateValidation: async (c, obj, old) => {
        const [o, p] = await this.#conv.fromInner(c, [obj, old]);
        if (o === undefined || p === undefined) throw newInternalError('conversion returned no object');
        await validate(c, o, p);
      },
    };
  }

  #watchObject(ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
    let out = this.#converted.get(obj);
    if (out === undefined) {
      // Shared by every watcher: not ended by the first one's signal.
      out = one(this.#conv, internalContext({ namespace: ctx.namespace }), obj);
      this.#converted.set(obj, out);
      // A failed conversion is not kept: the next watcher asks again.
      out.catch(() => this.#converted.delete(obj));
    }
    return out;
  }

  /** Events converted one by one in their order; a failed conversion ends the watch with an ERROR. */
  #convertWatch(ctx: RequestContext, inner: Watch): Watch {
    const served = this.#conv.apiVersion;
    const convert = async (event: WatchEvent): Promise<WatchEvent> => {
      if (event.type === 'ERROR') return event;
      // A bookmark carries only a resourceVersion: nothing for a webhook to convert.
      if (event.type === 'BOOKMARK')
        return { type: event.type, object: { ...event.object, apiVersion: served } };
      return { type: event.type, object: await this.#watchObject(ctx, event.object) };
    };
    return {
      stop: () => {
        inner.stop();
      },
      done: inner.done,
      async *[Symbol.asyncIterator]() {
        for await (const event of inner) {
          let out: WatchEvent;
          try {
            out = await convert(event);
          } catch (err) {
            inner.stop();
            const status = isStatusError(err) ? err.status : newInternalError(err).status;
            yield { type: 'ERROR', object: status };
            return;
          }
          yield out;
        }
      },
    };
  }
}
