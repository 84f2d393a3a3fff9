// AlwaysAdmit (plugin/pkg/admission/admit): admits every request. kube keeps it, deprecated, for old
// command lines; it changes nothing.
import { handlesOnly, type ValidationInterface } from '../../interfaces.js';

export const alwaysAdmitPluginName = 'AlwaysAdmit';

export class AlwaysAdmit implements ValidationInterface {
  readonly handles = handlesOnly('CREATE', 'UPDATE', 'DELETE', 'CONNECT');

  validate(): Promise<void> {
    return Promise.resolve();
  }
}
