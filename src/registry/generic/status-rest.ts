// The `/status` subresource of a resource kept by a generic Store (kube's StatusREST in each
// pkg/registry/<group>/<resource>/storage/storage.go): get and update through the same store with
// the status update strategy; it never creates.
import type { KubeList, KubeObject } from '../../api/meta.js';
import type { Table } from '../../api/table.js';
import type {
  DecodeDefaulter,
  EncodedGetter,
  Getter,
  Storage,
  UpdateRequest,
  Updater,
} from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type { GetOptions } from '../rest/options.js';
import type { UpdateStrategy } from '../rest/strategy.js';
import type { Store } from './store.js';

type IncludeObject = { includeObject?: 'None' | 'Object' | 'Metadata' };

export class StatusREST<T extends KubeObject>
  implements Storage, Getter, EncodedGetter, Updater, DecodeDefaulter
{
  readonly #store: Store<T>;

  /** `store` is the main resource's store; `/status` shares it with the given update strategy. */
  constructor(store: Store<T>, statusStrategy: UpdateStrategy<T>) {
    this.#store = store.withStrategies({ updateStrategy: statusStrategy });
  }
  newObject(): T {
    return this.#store.newObject();
  }
  /** kube's decoder defaults a `/status` body as it defaults the kind's every body. */
  defaultDecoded(obj: KubeObject): void {
    this.#store.defaultDecoded(obj);
  }
  destroy(): void {
    // Shared with the main resource, which releases it.
  }
  get(ctx: RequestContext, name: string, options: GetOptions): Promise<T> {
    return this.#store.get(ctx, name, options);
  }
  /** The object's JSON as the main resource serves it: `/status` reads the whole object too. */
  getEncoded(ctx: RequestContext, name: string, options: GetOptions): Promise<Buffer> {
    return this.#store.getEncoded(ctx, name, options);
  }
  update(ctx: RequestContext, name: string, req: UpdateRequest): Promise<{ object: T; created: boolean }> {
    return this.#store.update(ctx, name, { ...req, forceAllowCreate: false });
  }
  convertToTable(ctx: RequestContext, obj: KubeObject | KubeList, opts: IncludeObject): Table {
    return this.#store.convertToTable(ctx, obj, opts);
  }
}
