// PriorityClass storage (pkg/registry/scheduling/priorityclass/storage/storage.go): cluster-scoped
// `/priorityclasses`, short name `pc`. The system classes cannot be deleted, and at most one class
// is the global default (the check kube's Priority admission plugin makes on create and update).
import type { KubeObject } from '../../../api/meta.js';
import type { PriorityClass, PriorityClassList } from '../../../api/scheduling/v1/priority-class.js';
import { newForbidden } from '../../../machinery/errors/index.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import type { UpdateRequest, ValidateObjectFunc } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { CreateOptions, DeleteOptions } from '../../rest/options.js';
import { priorityClassDeleteStrategy, priorityClassStrategy, systemPriorityClasses } from './strategy.js';
import { priorityClassTableConvertor } from './table.js';

export const priorityClassResource = { group: 'scheduling.k8s.io', resource: 'priorityclasses' } as const;

export class PriorityClassREST extends Store<PriorityClass> {
  /** The Priority admission plugin's rule: no second global default. */
  async #checkSingleDefault(ctx: RequestContext, obj: KubeObject): Promise<void> {
    const pc = obj as PriorityClass;
    if (pc.globalDefault !== true) return;
    const name = pc.metadata?.name ?? '';
    const list = await this.list(ctx, {});
    const other = list.items.find((c) => c.globalDefault === true && c.metadata?.name !== name);
    if (other !== undefined) {
      throw newForbidden(
        priorityClassResource,
        name,
        `PriorityClass ${other.metadata?.name ?? ''} is already marked as default. Only one default can exist`,
      );
    }
  }

  override create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<PriorityClass> {
    const validate = opts.validate;
    return super.create(ctx, obj, {
      ...opts,
      validate: async (c, o) => {
        await validate?.(c, o);
        await this.#checkSingleDefault(c, o);
      },
    });
  }

  override update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: PriorityClass; created: boolean }> {
    const { createValidation, updateValidation } = req;
    // An update may create (server-side apply); the rule holds either way.
    return super.update(ctx, name, {
      ...req,
      createValidation: async (c, o) => {
        await createValidation?.(c, o);
        await this.#checkSingleDefault(c, o);
      },
      updateValidation: async (c, o, old) => {
        await updateValidation?.(c, o, old);
        await this.#checkSingleDefault(c, o);
      },
    });
  }

  override delete(
    ctx: RequestContext,
    name: string,
    opts: { options: DeleteOptions; validate?: ValidateObjectFunc },
  ): Promise<{ object: KubeObject; deleted: boolean }> {
    if (systemPriorityClasses.some((s) => s.metadata?.name === name)) {
      return Promise.reject(
        newForbidden(priorityClassResource, name, 'this is a system priority class and cannot be deleted'),
      );
    }
    return super.delete(ctx, name, opts);
  }
}

export async function newPriorityClassREST(opts: CoreStorageOptions): Promise<PriorityClassREST> {
  const store = await completeResourceStore<PriorityClass>(
    {
      qualifiedResource: priorityClassResource,
      singularName: 'priorityclass',
      newFunc: () => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', value: 0 }),
      newListFunc: () =>
        ({
          apiVersion: 'scheduling.k8s.io/v1',
          kind: 'PriorityClassList',
          metadata: {},
          items: [],
        }) satisfies PriorityClassList,
      createStrategy: priorityClassStrategy,
      updateStrategy: priorityClassStrategy,
      deleteStrategy: priorityClassDeleteStrategy,
      tableConvertor: priorityClassTableConvertor,
      shortNames: ['pc'],
      trackGeneration: false,
    },
    opts,
  );
  return new PriorityClassREST(store.core);
}
