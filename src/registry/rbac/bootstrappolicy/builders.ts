// The building blocks of kube's bootstrap policy (pkg/apis/rbac/v1/helpers.go's rule and binding
// builders, bootstrappolicy's addDefaultMetadata): a rule's lists come out sorted as RuleOrDie
// leaves them, and every object carries the bootstrapping label and the autoupdate annotation.
import {
  rbacGroup,
  type ClusterRole,
  type ClusterRoleBinding,
  type PolicyRule,
  type Role,
  type RoleBinding,
  type Subject,
} from '../../../api/rbac/v1/rbac.js';
import { autoUpdateAnnotation } from '../reconciliation/reconcile-role.js';

export const read = ['get', 'list', 'watch'] as const;
export const write = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;
export const readWrite = [...read, ...write] as const;
export const readUpdate = [...read, 'update', 'patch'] as const;

export const bootstrappingLabel = 'kubernetes.io/bootstrapping';

const sorted = (values: readonly string[]): string[] => [...values].sort();

/** A resource rule: verbs on the resources of the API groups ('' the core group). */
export function rule(
  verbs: readonly string[],
  apiGroups: readonly string[],
  resources: readonly string[],
): PolicyRule {
  return { verbs: sorted(verbs), apiGroups: sorted(apiGroups), resources: sorted(resources) };
}

/** The same rule limited to the named objects. */
export function named(base: PolicyRule, resourceNames: readonly string[]): PolicyRule {
  return { ...base, resourceNames: sorted(resourceNames) };
}

/** A non-resource rule: verbs on URL paths. */
export function urls(verbs: readonly string[], nonResourceURLs: readonly string[]): PolicyRule {
  return { verbs: sorted(verbs), nonResourceURLs: sorted(nonResourceURLs) };
}

/** Writing events in the core and events.k8s.io groups, as most components do. */
export const eventsRule = (): PolicyRule =>
  rule(['create', 'update', 'patch'], ['', 'events.k8s.io'], ['events']);

export const aggregateTo = (role: 'admin' | 'edit' | 'view'): Record<string, string> => ({
  [`rbac.authorization.k8s.io/aggregate-to-${role}`]: 'true',
});

function bootstrapMeta(name: string, extra: { namespace?: string; labels?: Record<string, string> }) {
  return {
    name,
    ...(extra.namespace === undefined ? {} : { namespace: extra.namespace }),
    labels: { [bootstrappingLabel]: 'rbac-defaults', ...extra.labels },
    annotations: { [autoUpdateAnnotation]: 'true' },
  };
}

export interface ClusterRoleSpec {
  readonly rules?: readonly PolicyRule[];
  readonly labels?: Record<string, string>;
  /** The label a ClusterRole needs to have its rules aggregated into this one. */
  readonly aggregateFrom?: 'admin' | 'edit' | 'view';
}

export function clusterRole(name: string, spec: ClusterRoleSpec): ClusterRole {
  const from = spec.aggregateFrom;
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRole',
    metadata: bootstrapMeta(name, spec.labels === undefined ? {} : { labels: spec.labels }),
    ...(spec.rules === undefined ? {} : { rules: [...spec.rules] }),
    ...(from === undefined
      ? {}
      : { aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregateTo(from) }] } }),
  };
}

export function role(namespace: string, name: string, rules: readonly PolicyRule[]): Role {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'Role',
    metadata: bootstrapMeta(name, { namespace }),
    rules: [...rules],
  };
}

export const groups = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'Group', apiGroup: rbacGroup, name }));

export const users = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'User', apiGroup: rbacGroup, name }));

export const serviceAccounts = (namespace: string, ...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'ServiceAccount', name, namespace }));

/** A ClusterRoleBinding named as the ClusterRole it binds. */
export function clusterRoleBinding(name: string, subjects: readonly Subject[]): ClusterRoleBinding {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: bootstrapMeta(name, {}),
    ...(subjects.length === 0 ? {} : { subjects: [...subjects] }),
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name },
  };
}

/** A RoleBinding of a Role in the same namespace; `name` defaults to the Role's. */
export function roleBinding(
  target: { namespace: string; role: string; name?: string },
  subjects: readonly Subject[],
): RoleBinding {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'RoleBinding',
    metadata: bootstrapMeta(target.name ?? target.role, { namespace: target.namespace }),
    subjects: [...subjects],
    roleRef: { apiGroup: rbacGroup, kind: 'Role', name: target.role },
  };
}
