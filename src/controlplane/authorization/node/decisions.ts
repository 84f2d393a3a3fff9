// The Node authorizer's per-resource decisions (node_authorizer.go authorizeLease, authorizeCSINode,
// authorizeNode, authorizePod's verb checks) that need no graph, with kube's reasons verbatim.
// Every refusal is NoOpinion with a reason: a later authorizer (RBAC) may still allow.
import type { AuthorizationAttributes, AuthorizationResult } from '../../../registry/rest/authorizer.js';
import { fieldSelectorOf } from '../../../registry/rest/authorizer-selectors.js';

export const allow: AuthorizationResult = { decision: 'Allow', reason: '' };
export const noOpinion = (reason: string): AuthorizationResult => ({ decision: 'NoOpinion', reason });

/** api.NamespaceNodeLease. */
export const nodeLeaseNamespace = 'kube-node-lease';

const writeVerbs: ReadonlySet<string> = new Set(['get', 'create', 'update', 'patch', 'delete']);

/** authorizeLease: a node's own Lease in kube-node-lease (create is left to NodeRestriction). */
export function authorizeLease(nodeName: string, attrs: AuthorizationAttributes): AuthorizationResult {
  if (!writeVerbs.has(attrs.verb))
    return noOpinion('can only get, create, update, patch, or delete a node lease');
  if (attrs.namespace !== nodeLeaseNamespace)
    return noOpinion(`can only access leases in the "${nodeLeaseNamespace}" system namespace`);
  if (attrs.verb !== 'create' && attrs.name !== nodeName)
    return noOpinion('can only access node lease with the same name as the requesting node');
  return allow;
}

/** authorizeCSINode: a node's own CSINode (create is left to NodeRestriction). */
export function authorizeCSINode(nodeName: string, attrs: AuthorizationAttributes): AuthorizationResult {
  if (!writeVerbs.has(attrs.verb))
    return noOpinion('can only get, create, update, patch, or delete a CSINode');
  if ((attrs.subresource ?? '') !== '') return noOpinion('cannot authorize CSINode subresources');
  if (attrs.verb !== 'create' && attrs.name !== nodeName)
    return noOpinion('can only access CSINode with the same name as the requesting node');
  return allow;
}

/**
 * authorizeNode (AuthorizeNodeWithSelectors, on in 1.33): writes are left to NodeRestriction; reads
 * only of the node's own object, compared by name so a kubelet may look before it registers.
 */
export function authorizeNode(nodeName: string, attrs: AuthorizationAttributes): AuthorizationResult {
  const sub = attrs.subresource ?? '';
  if (sub === '') {
    switch (attrs.verb) {
      case 'create':
      case 'update':
      case 'patch':
        return allow;
      case 'get':
      case 'list':
      case 'watch': {
        const name = attrs.name ?? '';
        if (name === nodeName) return allow;
        if (name === '')
          return noOpinion(`node '${nodeName}' cannot read all nodes, only its own Node object`);
        return noOpinion(`node '${nodeName}' cannot read '${name}', only its own Node object`);
      }
      default:
        return noOpinion('');
    }
  }
  if (sub === 'status' && (attrs.verb === 'update' || attrs.verb === 'patch')) return allow;
  return noOpinion('');
}

/** Whether the request's field selector pins `field` to `value` with `=` (or `==`), raw or parsed. */
export function selectsExactly(attrs: AuthorizationAttributes, field: string, value: string): boolean {
  return fieldSelectorOf(attrs).requirements.some(
    (r) => r.field === field && r.operator === '=' && r.value === value,
  );
}
