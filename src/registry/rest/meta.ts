// The one namespace check of a request's object (k8s.io/apiserver/pkg/registry/rest/meta.go): the
// handlers run it on the decoded body, the Store's BeforeCreate and BeforeUpdate on what is written.
import type { ObjectMeta } from '../../api/meta.js';
import { newBadRequest } from '../../machinery/errors/index.js';

const namespaceMismatch =
  'the namespace of the provided object does not match the namespace sent on the request';

/** rest.ExpectedNamespaceForScope: cluster-scoped objects belong to no namespace. */
export function expectedNamespaceForScope(requestNamespace: string, namespaceScoped: boolean): string {
  return namespaceScoped ? requestNamespace : '';
}

/** rest.ExpectedNamespaceForResource: namespaces themselves live in no namespace. */
export function expectedNamespaceForResource(
  requestNamespace: string,
  resource: { readonly group: string; readonly resource: string },
): string {
  return resource.group === '' && resource.resource === 'namespaces' ? '' : requestNamespace;
}

/**
 * rest.EnsureObjectNamespaceMatchesRequestNamespace: an unset namespace takes the request's, a
 * cluster-scoped request clears it, a different one is a 400.
 */
export function ensureObjectNamespaceMatchesRequestNamespace(
  requestNamespace: string,
  meta: ObjectMeta,
): void {
  const objNamespace = meta.namespace ?? '';
  if (objNamespace === requestNamespace) return;
  if (objNamespace === '') {
    meta.namespace = requestNamespace;
    return;
  }
  if (requestNamespace === '') {
    delete meta.namespace;
    return;
  }
  throw newBadRequest(namespaceMismatch);
}
