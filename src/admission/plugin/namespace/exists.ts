// NamespaceExists (plugin/pkg/admission/namespace/exists): a request in a namespace that does not
// exist is answered 404 for it. NamespaceLifecycle does this too; kube keeps both names.
import { isStatusError, newInternalError } from '../../../machinery/errors/index.js';
import type { Getter } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { handlesOnly, type ValidationInterface } from '../../interfaces.js';
import { listerGet } from '../../../registry/rest/lister-read.js';

export const namespaceExistsPluginName = 'NamespaceExists';

export const isNamespaceRequest = (a: Attributes): boolean =>
  a.kind.group === '' && a.kind.kind === 'Namespace';

export class NamespaceExists implements ValidationInterface {
  readonly #namespaces: Getter;
  readonly handles = handlesOnly('CREATE', 'UPDATE', 'DELETE');

  constructor(opts: { readonly namespaces: Getter }) {
    this.#namespaces = opts.namespaces;
  }

  async validate(ctx: RequestContext, a: Attributes): Promise<void> {
    if (a.namespace === '' || isNamespaceRequest(a)) return;
    try {
      await listerGet(this.#namespaces, internalContext({ parent: ctx }), a.namespace);
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') throw err;
      throw newInternalError(err);
    }
  }
}
