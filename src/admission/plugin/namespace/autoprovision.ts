// NamespaceAutoProvision (plugin/pkg/admission/namespace/autoprovision): creating something in a
// namespace that does not exist creates the namespace first (not on a dry run).
import type { Namespace } from '../../../api/core/v1/namespace.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import type { Creater, Getter } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type MutationInterface } from '../../interfaces.js';
import { listerGet } from '../../../registry/rest/lister-read.js';
import { isNamespaceRequest } from './exists.js';

export const namespaceAutoProvisionPluginName = 'NamespaceAutoProvision';

const reasonOf = (err: unknown): string | undefined => (isStatusError(err) ? err.reason : undefined);

export class NamespaceAutoProvision implements MutationInterface {
  readonly #namespaces: Getter & Creater;
  readonly handles = handlesOnly('CREATE');

  constructor(opts: { readonly namespaces: Getter & Creater }) {
    this.#namespaces = opts.namespaces;
  }

  async admit(ctx: RequestContext, a: Attributes): Promise<void> {
    if (a.dryRun || a.namespace === '' || isNamespaceRequest(a)) return;
    const internal = internalContext({ parent: ctx });
    try {
      await listerGet(this.#namespaces, internal, a.namespace);
      return;
    } catch (err) {
      if (reasonOf(err) !== 'NotFound') throw newAdmissionForbidden(a, err);
    }
    const namespace: Namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: a.namespace } };
    try {
      await this.#namespaces.create(internal, namespace, { options: {} });
    } catch (err) {
      if (reasonOf(err) !== 'AlreadyExists') throw newAdmissionForbidden(a, err);
    }
  }
}
