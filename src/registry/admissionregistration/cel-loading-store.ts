// The store of a kind whose validation compiles CEL (ValidatingAdmissionPolicies, webhook
// configurations with matchConditions): creating and updating load the CEL library first, so that
// the synchronous validation can compile the expressions (as the CRD store does for
// x-kubernetes-validations). A server that never writes such an object never loads it.
import type { KubeObject } from '../../api/meta.js';
import { loadCel } from '../apiextensions/customresource/cel/load.js';
import { Store } from '../generic/store.js';
import type { StoreCore } from '../generic/store-core.js';
import type { UpdatedObjectInfo, UpdateRequest, ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type { CreateOptions } from '../rest/options.js';

export class CelLoadingStore<T extends KubeObject> extends Store<T> {
  /** Whether validating `obj` compiles CEL. */
  readonly #compiles: (obj: KubeObject) => boolean;

  constructor(core: StoreCore<T>, compiles: (obj: KubeObject) => boolean) {
    super(core);
    this.#compiles = compiles;
  }

  override async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<T> {
    if (this.#compiles(obj)) await loadCel();
    return super.create(ctx, obj, opts);
  }

  override update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: T; created: boolean }> {
    const { objInfo } = req;
    const loading: UpdatedObjectInfo = {
      preconditions: () => objInfo.preconditions(),
      updatedObject: async (c, old) => {
        const obj = await objInfo.updatedObject(c, old);
        if (this.#compiles(obj)) await loadCel();
        return obj;
      },
    };
    return super.update(ctx, name, { ...req, objInfo: loading });
  }
}
