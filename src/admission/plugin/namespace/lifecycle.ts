// NamespaceLifecycle (k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go):
// `default`, `kube-system` and `kube-public` may not be deleted; nothing new is created in a
// Terminating namespace; nothing is created or updated in a namespace that does not exist. kube
// reads an informer cache and falls back to a live read; we read the namespace storage through a
// short-lived cache (namespace-cache.ts) and read live whenever the cache has nothing, so kube's wait
// for a slow cache to see a new namespace falls away.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import {
  isStatusError,
  newForbidden,
  newInternalError,
  type StatusError,
} from '../../../machinery/errors/index.js';
import type { Getter } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type AdmissionResult, type MutationInterface, withLookup } from '../../interfaces.js';
import { NamespaceCache } from './namespace-cache.js';

export const namespaceLifecyclePluginName = 'NamespaceLifecycle';

/** metav1.NamespaceDefault, NamespaceSystem and NamespacePublic. */
export const immortalNamespaces: readonly string[] = ['default', 'kube-system', 'kube-public'];

/** Creating these must not reveal whether a namespace exists. */
const accessReviewResources: ReadonlySet<string> = new Set([
  'authorization.k8s.io/localsubjectaccessreviews',
]);

/** v1.NamespaceTerminatingCause. */
export const namespaceTerminatingCause = 'NamespaceTerminating';

export interface NamespaceLifecycleOptions {
  /** The namespaces storage (or anything that reads a namespace by name). */
  readonly namespaces: Getter;
  readonly immortalNamespaces?: readonly string[];
  /** How long an Active namespace read is reused (default 1s; 0 reads storage for every request). */
  readonly cacheTTLMs?: number;
}

const isNamespaceKind = (a: Attributes): boolean => a.kind.group === '' && a.kind.kind === 'Namespace';

function terminatingError(a: Attributes): StatusError {
  const err = newAdmissionForbidden(
    a,
    `unable to create new content in namespace ${a.namespace} because it is being terminated`,
  );
  const details = (err.status.details ??= {});
  (details.causes ??= []).push({
    reason: namespaceTerminatingCause,
    message: `namespace ${a.namespace} is being terminated`,
    field: 'metadata.namespace',
  });
  return err;
}

/** No new object in a namespace being deleted. */
function refuseIfTerminating(a: Attributes, namespace: Namespace): void {
  if (a.operation === 'CREATE' && namespace.status?.phase === 'Terminating') throw terminatingError(a);
}

export class NamespaceLifecycle implements MutationInterface {
  readonly #namespaces: Getter;
  readonly #immortal: ReadonlySet<string>;
  readonly #cache: NamespaceCache;
  readonly handles = handlesOnly('CREATE', 'UPDATE', 'DELETE');

  constructor(opts: NamespaceLifecycleOptions) {
    this.#namespaces = opts.namespaces;
    this.#immortal = new Set(opts.immortalNamespaces ?? immortalNamespaces);
    this.#cache = new NamespaceCache({ ttlMs: opts.cacheTTLMs ?? 1000 });
  }

  admit(ctx: RequestContext, a: Attributes): AdmissionResult {
    if (isNamespaceKind(a)) {
      if (a.operation === 'DELETE' && this.#immortal.has(a.name)) {
        const resource = { group: a.resource.group, resource: a.resource.resource };
        throw newForbidden(resource, a.name, 'this namespace may not be deleted');
      }
      // No new content from now on: stop trusting what the cache says about it.
      if (a.operation === 'DELETE') this.#cache.forceLiveLookup(a.name);
      // Every operation on namespaces themselves is allowed.
      return undefined;
    }
    if (a.namespace === '' || a.operation === 'DELETE') return undefined;
    if (accessReviewResources.has(`${a.resource.group}/${a.resource.resource}`)) return undefined;
    return withLookup(
      this.#cache.get(a.namespace),
      () => this.#get(ctx, a.namespace),
      (namespace) => {
        refuseIfTerminating(a, namespace);
      },
    );
  }

  close(): void {
    this.#cache.close();
  }

  /** The namespace read now; NotFound goes to the client as is, other failures as 500. */
  async #get(ctx: RequestContext, name: string): Promise<Namespace> {
    try {
      const live = (await this.#namespaces.get(internalContext({ parent: ctx }), name, {
        readOnly: true,
      })) as Namespace;
      this.#cache.set(name, live);
      return live;
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') throw err;
      throw newInternalError(err);
    }
  }
}
