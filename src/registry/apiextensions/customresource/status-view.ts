// `<resource>/status` of a custom resource at a served version: the storage version's status REST
// with objects converted on the way in and out (awaited: a conversion webhook may do it).
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Table } from '../../../api/table.js';
import type { AsyncVersionConversion } from '../../generic/async-converting-view.js';
import type { StatusREST } from '../../generic/status-rest.js';
import type { Getter, Storage, UpdateRequest, Updater } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { GetOptions } from '../../rest/options.js';

export class StatusView implements Storage, Getter, Updater {
  readonly #inner: StatusREST<KubeObject>;
  readonly #conv: AsyncVersionConversion;

  constructor(inner: StatusREST<KubeObject>, conversion: AsyncVersionConversion) {
    this.#inner = inner;
    this.#conv = conversion;
  }
  newObject(): KubeObject {
    return { apiVersion: this.#conv.apiVersion, kind: this.#conv.kind };
  }
  destroy(): void {
    // The main resource's store is released with it.
  }
  async get(ctx: RequestContext, name: string, options: GetOptions): Promise<KubeObject> {
    return this.#out(ctx, await this.#inner.get(ctx, name, options));
  }
  async update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: KubeObject; created: boolean }> {
    const { objInfo } = req;
    const { object, created } = await this.#inner.update(ctx, name, {
      ...req,
      objInfo: {
        preconditions: () => objInfo.preconditions(),
        updatedObject: async (c, old) =>
          this.#conv.toInner(
            c,
            await objInfo.updatedObject(c, old === null ? null : await this.#out(c, old)),
          ),
      },
    });
    return { object: await this.#out(ctx, object), created };
  }
  async #out(ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
    const [out] = await this.#conv.fromInner(ctx, [obj]);
    return out ?? obj;
  }
  convertToTable(
    ctx: RequestContext,
    obj: KubeObject | KubeList,
    opts: { includeObject?: 'None' | 'Object' | 'Metadata' },
  ): Table {
    return this.#inner.convertToTable(ctx, obj, opts);
  }
}
