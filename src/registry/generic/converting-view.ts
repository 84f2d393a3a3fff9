// One stored kind served at another version (kube serves every version of a group from one
// storage version through conversion to and from the internal type): events.k8s.io/v1 Events over
// the core Events' store, autoscaling/v1 HorizontalPodAutoscalers over autoscaling/v2's. Every verb
// goes to the inner store; objects are converted on the way in and out. Converted objects are
// memoized by the stored object's identity, so the watch cache's shared events stay shared (and are
// serialized once) for every watcher of the view.
import type { KubeList, KubeObject } from '../../api/meta.js';
import type { Table } from '../../api/table.js';
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
import type { RequestContext } from '../rest/context.js';
import type { CreateOptions, DeleteOptions, GetOptions, ListOptions } from '../rest/options.js';
import type { Store } from './store.js';
import { StoreView } from './store-view.js';

/** Conversion between the served version (outer) and the stored one (inner). */
export interface VersionConversion<Outer extends KubeObject, Inner extends KubeObject> {
  /** apiVersion and kind of the served objects and lists (`events.k8s.io/v1`, `Event`). */
  readonly apiVersion: string;
  readonly kind: string;
  /** A served object to the stored version; must not modify its argument. */
  toInner(obj: Outer): Inner;
  /** A stored object to the served version; must not modify its argument. */
  fromInner(obj: Inner): Outer;
  /** The served version's defaulters, run in place on a body as kube's decoder runs them. */
  defaultDecoded?(obj: Outer): void;
}

const isList = (obj: KubeObject | KubeList): obj is KubeList =>
  Array.isArray((obj as { items?: unknown }).items);

export class ConvertingView<Outer extends KubeObject, Inner extends KubeObject>
  extends StoreView<Outer, Inner>
  implements Getter, Lister, Watcher, Creater, Updater, GracefulDeleter, CollectionDeleter
{
  readonly #conv: VersionConversion<Outer, Inner>;
  readonly #converted = new WeakMap<Inner, Outer>();

  constructor(inner: Store<Inner>, conversion: VersionConversion<Outer, Inner>) {
    super(inner, conversion);
    this.#conv = conversion;
  }

  /** A served object at the stored version (StoredVersionConverter; admission's matchPolicy Equivalent). */
  toStoredVersion(_ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
    return Promise.resolve(this.#conv.toInner(obj as Outer));
  }

  fromStoredVersion(_ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
    return Promise.resolve(this.#conv.fromInner(obj as Inner));
  }

  /** A body at the served version gets that version's defaults (the stored kind's come on the way in). */
  defaultDecoded(obj: KubeObject): void {
    this.#conv.defaultDecoded?.(obj as Outer);
  }

  async get(ctx: RequestContext, name: string, options: GetOptions): Promise<Outer> {
    return this.#out(await this.inner.get(ctx, name, options));
  }

  async list(ctx: RequestContext, options: ListOptions): Promise<KubeList<Outer>> {
    const list = await this.inner.list(ctx, options);
    return { ...list, ...this.#listType(), items: list.items.map((item) => this.#out(item)) };
  }

  async watch(ctx: RequestContext, options: ListOptions): Promise<Watch<Outer>> {
    return this.#convertWatch(await this.inner.watch(ctx, options));
  }

  async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<Outer> {
    const inner = this.#conv.toInner(obj as Outer);
    return this.#out(await this.inner.create(ctx, inner, { ...opts, ...this.#outerValidate(opts.validate) }));
  }

  async update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: Outer; created: boolean }> {
    // The view converts what the inner store returns: the caller's promise not to keep it is not the view's.
    const { objInfo, handsOverResult: _theCallers, ...rest } = req;
    const innerReq: UpdateRequest = {
      ...rest,
      objInfo: {
        preconditions: () => objInfo.preconditions(),
        updatedObject: async (c, old) =>
          this.#conv.toInner(
            (await objInfo.updatedObject(c, old === null ? null : this.#out(old as Inner))) as Outer,
          ),
      },
      ...this.#outerValidate(req.createValidation),
      ...this.#outerUpdateValidate(req.updateValidation),
    };
    const { object, created } = await this.inner.update(ctx, name, innerReq);
    return { object: this.#out(object), created };
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
    // A Success Status stays a Status; a deleted or marked object is served at this version.
    return { object: object.kind === 'Status' ? object : this.#out(object as Inner), deleted };
  }

  async deleteCollection(
    ctx: RequestContext,
    opts: { options: DeleteOptions; listOptions: ListOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeList<Outer>> {
    const list = await this.inner.deleteCollection(ctx, { ...opts, ...this.#outerValidate(opts.validate) });
    return { ...list, ...this.#listType(), items: list.items.map((item) => this.#out(item)) };
  }

  /** The stored kind's columns; rows carry the served objects. */
  convertToTable(
    ctx: RequestContext,
    obj: KubeObject | KubeList,
    opts: { includeObject?: 'None' | 'Object' | 'Metadata' },
  ): Table {
    const outers: readonly KubeObject[] = isList(obj) ? obj.items : [obj];
    const inner = isList(obj)
      ? { ...obj, items: obj.items.map((item) => this.#conv.toInner(item as Outer)) }
      : this.#conv.toInner(obj as Outer);
    const table = this.inner.convertToTable(ctx, inner, opts);
    if (opts.includeObject !== 'Object') return table;
    return {
      ...table,
      rows: table.rows.map((row, i) => {
        const outer = outers[i];
        return outer === undefined ? row : { ...row, object: outer };
      }),
    };
  }

  #out(inner: Inner): Outer {
    let outer = this.#converted.get(inner);
    if (outer === undefined) {
      outer = this.#conv.fromInner(inner);
      this.#converted.set(inner, outer);
    }
    return outer;
  }

  #listType(): { apiVersion: string; kind: string } {
    return { apiVersion: this.#conv.apiVersion, kind: `${this.#conv.kind}List` };
  }

  /** Admission sees the served version, as it does in kube. */
  #outerValidate(validate: ValidateObjectFunc | undefined): {
    validate?: ValidateObjectFunc;
    createValidation?: ValidateObjectFunc;
  } {
    if (validate === undefined) return {};
    const wrapped: ValidateObjectFunc = (c, obj) => validate(c, this.#out(obj as Inner));
    return { validate: wrapped, createValidation: wrapped };
  }

  #outerUpdateValidate(validate: ValidateObjectUpdateFunc | undefined): {
    updateValidation?: ValidateObjectUpdateFunc;
  } {
    if (validate === undefined) return {};
    return {
      updateValidation: (c, obj, old) => validate(c, this.#out(obj as Inner), this.#out(old as Inner)),
    };
  }

  #convertWatch(inner: Watch<Inner>): Watch<Outer> {
    const convertEvent = (event: WatchEvent<Inner>): WatchEvent<Outer> =>
      event.type === 'ERROR' ? event : { type: event.type, object: this.#out(event.object) };
    return {
      stop: () => {
        inner.stop();
      },
      done: inner.done,
      async *[Symbol.asyncIterator]() {
        for await (const event of inner) yield convertEvent(event);
      },
    };
  }
}
