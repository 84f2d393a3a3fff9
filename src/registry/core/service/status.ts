// services/status: get and update the status; the spec stays (serviceStatusStrategy). The storage
// belongs to the services store.
import type { Service } from '../../../api/core/v1/service.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Table } from '../../../api/table.js';
import type { Store } from '../../generic/store.js';
import type { Getter, Storage, UpdateRequest, Updater } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { GetOptions } from '../../rest/options.js';

type IncludeObject = { includeObject?: 'None' | 'Object' | 'Metadata' };

export class ServiceStatusREST implements Storage, Getter, Updater {
  readonly #store: Store<Service>;

  constructor(store: Store<Service>) {
    this.#store = store;
  }
  newObject(): Service {
    return this.#store.newObject();
  }
  destroy(): void {
    // Shared with the main resource, which releases it.
  }
  get(ctx: RequestContext, name: string, options: GetOptions): Promise<Service> {
    return this.#store.get(ctx, name, options);
  }
  update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: Service; created: boolean }> {
    return this.#store.update(ctx, name, { ...req, forceAllowCreate: false });
  }
  convertToTable(ctx: RequestContext, obj: KubeObject | KubeList, opts: IncludeObject): Table {
    return this.#store.convertToTable(ctx, obj, opts);
  }
}
