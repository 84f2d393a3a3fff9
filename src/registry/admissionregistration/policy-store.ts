// The ValidatingAdmissionPolicy store: creating and updating load the CEL library first, so that the
// synchronous policy validation can compile the policy's expressions (as the CRD store does for
// x-kubernetes-validations). A server that never writes a policy never loads it.
import type { ValidatingAdmissionPolicy } from '../../api/admissionregistration/v1/policy.js';
import type { KubeObject } from '../../api/meta.js';
import { loadCel } from '../apiextensions/customresource/cel/load.js';
import { Store } from '../generic/store.js';
import type { UpdatedObjectInfo, UpdateRequest, ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type { CreateOptions } from '../rest/options.js';

export class ValidatingAdmissionPolicyStore extends Store<ValidatingAdmissionPolicy> {
  override async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<ValidatingAdmissionPolicy> {
    await loadCel();
    return super.create(ctx, obj, opts);
  }

  override update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: ValidatingAdmissionPolicy; created: boolean }> {
    const { objInfo } = req;
    const loading: UpdatedObjectInfo = {
      preconditions: () => objInfo.preconditions(),
      updatedObject: async (c, old) => {
        const obj = await objInfo.updatedObject(c, old);
        await loadCel();
        return obj;
      },
    };
    return super.update(ctx, name, { ...req, objInfo: loading });
  }
}
