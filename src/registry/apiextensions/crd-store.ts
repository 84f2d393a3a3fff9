// The CustomResourceDefinition store (apiextensions-apiserver's customresourcedefinition REST).
// Deleting: the first delete adds the customresourcecleanup finalizer and a Terminating condition
// and marks the CRD deleted; the CRD goes once whoever serves its resources has deleted them all
// and removed the finalizer (src/controlplane/customresources). A later delete is the store's own.
// Creating and updating load the CEL library first when the CRD has validation rules, which the
// synchronous CRD validation then compiles.
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { KubeObject } from '../../api/meta.js';
import type { UpdatedObjectInfo, UpdateRequest, ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type { CreateOptions, DeleteOptions } from '../rest/options.js';
import { isDryRun } from '../rest/options.js';
import { Store } from '../generic/store.js';
import { setCRDCondition } from './conditions.js';
import { preloadCelFor } from './customresource/cel/compile.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';
import { nowRFC3339 } from '../../machinery/time/rfc3339.js';

export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

const now = nowRFC3339;

export class CustomResourceDefinitionStore extends Store<CustomResourceDefinition> {
  // The synchronous CRD validation compiles CEL rules with a library loaded here, on first need.
  override async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<CustomResourceDefinition> {
    await preloadCelFor(obj);
    return super.create(ctx, obj, opts);
  }

  override update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: CustomResourceDefinition; created: boolean }> {
    const { objInfo } = req;
    const loading: UpdatedObjectInfo = {
      preconditions: () => objInfo.preconditions(),
      updatedObject: async (c, old) => {
        const obj = await objInfo.updatedObject(c, old);
        await preloadCelFor(obj);
        return obj;
      },
    };
    return super.update(ctx, name, { ...req, objInfo: loading });
  }

  override async delete(
    ctx: RequestContext,
    name: string,
    opts: { options: DeleteOptions; validate?: ValidateObjectFunc },
  ): Promise<{ object: KubeObject; deleted: boolean }> {
    const current = await this.get(ctx, name, {});
    if (current.metadata?.deletionTimestamp !== undefined) return super.delete(ctx, name, opts);
    const { preconditions } = opts.options;
    const out = await this.core.storage.guaranteedUpdate(this.core.keyFunc(ctx, name), {
      dryRun: isDryRun(opts.options.dryRun),
      ...(preconditions === undefined ? {} : { preconditions }),
      tryUpdate: async (existing) => {
        if (existing === null) throw new Error(`customresourcedefinition ${name} vanished`);
        const crd = deepCopyJSON(existing);
        await opts.validate?.(ctx, crd);
        const meta = (crd.metadata ??= {});
        meta.deletionTimestamp ??= now();
        meta.deletionGracePeriodSeconds ??= 0;
        const finalizers = (meta.finalizers ??= []);
        if (!finalizers.includes(customResourceCleanupFinalizer))
          finalizers.push(customResourceCleanupFinalizer);
        setCRDCondition(crd, {
          type: 'Terminating',
          status: 'True',
          lastTransitionTime: now(),
          reason: 'InstanceDeletionPending',
          message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
        });
        return crd;
      },
    });
    return { object: out, deleted: false };
  }
}
