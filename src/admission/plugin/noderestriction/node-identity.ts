// Which node a user speaks for (pkg/auth/nodeidentifier/default.go): a member of system:nodes named
// system:node:<name>. Both the Node authorizer and NodeRestriction ask it first, so every other user
// leaves them after a string compare.
import type { UserInfo } from '../../../registry/rest/context.js';

export const nodeUserNamePrefix = 'system:node:';
/** user.NodesGroup. */
export const nodesGroup = 'system:nodes';

/**
 * The node's name when the user is a node (possibly '' for `system:node:` alone, which kube treats as
 * a node it cannot identify), else undefined.
 */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(nodeUserNamePrefix)) return undefined;
  if (!user.groups.includes(nodesGroup)) return undefined;
  return user.name.slice(nodeUserNamePrefix.length);
}
