// bootstrappolicy.NodeRules(): the static rules the Node authorizer applies to every node for the
// resources it does not narrow itself; they are the system:node ClusterRole's rules.
import type { PolicyRule } from '../../../api/rbac/v1/rbac.js';
import { bootstrapClusterRoles } from '../../../registry/rbac/bootstrap-policy.js';

export function nodeRules(): readonly PolicyRule[] {
  return bootstrapClusterRoles.find((r) => r.metadata?.name === 'system:node')?.rules ?? [];
}
