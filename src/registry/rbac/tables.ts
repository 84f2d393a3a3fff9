// `kubectl get` columns of the RBAC kinds (pkg/printers/internalversion/printers.go): roles
// NAME CREATED AT; bindings NAME ROLE AGE, and USERS GROUPS SERVICEACCOUNTS with -o wide.
import type { RoleBinding } from '../../api/rbac/v1/rbac.js';
import type { Role } from '../../api/rbac/v1/rbac.js';
import type { TableColumnDefinition } from '../../api/table.js';
import { translateTimestampSince } from '../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../generic/table-convertor.js';
import type { TableConvertor } from '../rest/capabilities.js';

const column = (name: string, description: string, priority = 0): TableColumnDefinition => ({
  name,
  type: 'string',
  format: '',
  description,
  priority,
});

/** Roles and ClusterRoles: the creation time as RFC 3339 in UTC. */
export const roleTableConvertor: TableConvertor = tableConvertorFor<Role>({
  columns: [nameColumn, { ...column('Created At', 'Time when this role was created.'), type: 'date' }],
  cells: (role) => [role.metadata?.name ?? '', rfc3339(role.metadata?.creationTimestamp)],
});

function rfc3339(timestamp: string | undefined): string {
  if (timestamp === undefined) return '0001-01-01T00:00:00Z';
  return new Date(timestamp).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const subjectsOfKind = (b: RoleBinding, kind: string): string =>
  (b.subjects ?? [])
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}:${s.name ?? ''}` : (s.name ?? '')))
    .join(', ');

/** RoleBindings and ClusterRoleBindings. */
export const bindingTableConvertor: TableConvertor = tableConvertorFor<RoleBinding>({
  columns: [
    nameColumn,
    column('Role', 'Role is the role the binding grants.'),
    ageColumn,
    column('Users', 'Users in the binding.', 1),
    column('Groups', 'Groups in the binding.', 1),
    column('ServiceAccounts', 'ServiceAccounts in the binding.', 1),
  ],
  cells: (b, now) => [
    b.metadata?.name ?? '',
    `${b.roleRef.kind}/${b.roleRef.name}`,
    translateTimestampSince(b.metadata?.creationTimestamp, now),
    subjectsOfKind(b, 'User'),
    subjectsOfKind(b, 'Group'),
    subjectsOfKind(b, 'ServiceAccount'),
  ],
});
