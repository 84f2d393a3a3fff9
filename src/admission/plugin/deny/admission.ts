// AlwaysDeny (plugin/pkg/admission/deny): refuses every write and connect, in both halves of
// admission, as kube's test-only plugin does.
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type MutationInterface, type ValidationInterface } from '../../interfaces.js';

export const alwaysDenyPluginName = 'AlwaysDeny';

const denial = 'admission control is denying all modifications';

export class AlwaysDeny implements MutationInterface, ValidationInterface {
  readonly handles = handlesOnly('CREATE', 'UPDATE', 'DELETE', 'CONNECT');

  admit(_ctx: RequestContext, a: Attributes): Promise<void> {
    return Promise.reject(newAdmissionForbidden(a, denial));
  }

  validate(_ctx: RequestContext, a: Attributes): Promise<void> {
    return Promise.reject(newAdmissionForbidden(a, denial));
  }
}
