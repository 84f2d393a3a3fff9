// rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding and their
// lists (k8s.io/api/rbac/v1/types.go; protobuf field numbers from its struct tags).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import { apiDefinitions, groupKind, type APIModule } from '../../schema/api-module.js';
import { arrayOf, atomicList, ref, str, struct } from '../../schema/builders.js';
import type { Schema } from '../../schema/types.js';
import { pointer } from '../../schema/protobuf.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export const rbacGroup = 'rbac.authorization.k8s.io';
export const rbacV1 = { group: rbacGroup, version: 'v1' } as const;
const def = apiDefinitions('rbac', 'v1');

// Fields Go declares without omitempty are still optional here: a body may leave them out.
export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

export interface Role extends KubeObject {
  metadata?: ObjectMeta;
  rules?: PolicyRule[];
}

export interface ClusterRole extends Role {
  aggregationRule?: AggregationRule;
}

export interface RoleBinding extends KubeObject {
  metadata?: ObjectMeta;
  subjects?: Subject[];
  roleRef: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;

export interface RBACList<T> extends KubeObject {
  metadata?: ListMeta;
  items: T[];
}

export const POLICY_RULE = def('PolicyRule');
export const SUBJECT = def('Subject');
export const ROLE_REF = def('RoleRef');
export const AGGREGATION_RULE = def('AggregationRule');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const metadata = ref(OBJECT_META, 'Standard object metadata.', { default: {} });

function listOf(item: string, plural: string): Schema {
  return struct(
    `A list of ${plural}.`,
    {
      apiVersion,
      items: arrayOf(ref(def(item), undefined, { default: {} }), `The ${plural}.`),
      kind,
      metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
    },
    { required: ['items'] },
  );
}

const rules = atomicList(ref(POLICY_RULE, undefined, { default: {} }), 'The PolicyRules of this role.');
const subjects = atomicList(ref(SUBJECT, undefined, { default: {} }), 'Who the role is bound to.');
const roleRef = ref(ROLE_REF, 'The role bound; it cannot change.', { default: {} });

const kinds = ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'] as const;

export const rbacV1Module: APIModule = {
  definitions: {
    [POLICY_RULE]: struct(
      'What a rule allows: verbs on resources, or on non-resource URLs.',
      {
        apiGroups: atomicList(str(), 'API groups of the resources; "" is the core group, "*" all.'),
        nonResourceURLs: atomicList(str(), 'Non-resource URL paths such as /healthz; "*" suffixes allowed.'),
        resourceNames: atomicList(str(), 'Names the rule is limited to; empty means all.'),
        resources: atomicList(str(), 'Resources the rule applies to; "*" means all.'),
        verbs: atomicList(str(), 'Verbs the rule allows; "*" means all.'),
      },
      { required: ['verbs'] },
    ),
    [SUBJECT]: struct(
      'A user, group or service account a binding names.',
      {
        apiGroup: str('"" for ServiceAccount, rbac.authorization.k8s.io for User and Group.'),
        kind: str('ServiceAccount, User or Group.'),
        name: str('The name of the subject.'),
        namespace: str('The namespace of a ServiceAccount subject.'),
      },
      { required: ['kind', 'name'], 'x-kubernetes-map-type': 'atomic' },
    ),
    [ROLE_REF]: struct(
      'The role a binding grants.',
      {
        apiGroup: str('The group of the role: rbac.authorization.k8s.io.'),
        kind: str('Role or ClusterRole.'),
        name: str('The name of the role.'),
      },
      { required: ['apiGroup', 'kind', 'name'], 'x-kubernetes-map-type': 'atomic' },
    ),
    [AGGREGATION_RULE]: struct('How a ClusterRole is assembled from other ClusterRoles.', {
      clusterRoleSelectors: atomicList(
        ref(LABEL_SELECTOR, undefined, { default: {} }),
        'Selectors of the roles aggregated.',
      ),
    }),
    [def('Role')]: struct('Namespaced rules.', { apiVersion, kind, metadata, rules }),
    [def('ClusterRole')]: struct('Cluster-wide rules, optionally aggregated from other ClusterRoles.', {
      aggregationRule: ref(AGGREGATION_RULE, 'Selects ClusterRoles whose rules this one aggregates.'),
      apiVersion,
      kind,
      metadata,
      rules,
    }),
    [def('RoleBinding')]: struct(
      'Grants a Role or ClusterRole within a namespace.',
      { apiVersion, kind, metadata, roleRef, subjects },
      { required: ['roleRef'] },
    ),
    [def('ClusterRoleBinding')]: struct(
      'Grants a ClusterRole cluster-wide.',
      { apiVersion, kind, metadata, roleRef, subjects },
      { required: ['roleRef'] },
    ),
    [def('RoleList')]: listOf('Role', 'Roles'),
    [def('ClusterRoleList')]: listOf('ClusterRole', 'ClusterRoles'),
    [def('RoleBindingList')]: listOf('RoleBinding', 'RoleBindings'),
    [def('ClusterRoleBindingList')]: listOf('ClusterRoleBinding', 'ClusterRoleBindings'),
  },
  kinds: kinds.flatMap((k) => [groupKind(rbacV1, k, def(k)), groupKind(rbacV1, `${k}List`, def(`${k}List`))]),
  protobuf: {
    [POLICY_RULE]: { verbs: 1, apiGroups: 2, resources: 3, resourceNames: 4, nonResourceURLs: 5 },
    [SUBJECT]: { kind: 1, apiGroup: 2, name: 3, namespace: 4 },
    [ROLE_REF]: { apiGroup: 1, kind: 2, name: 3 },
    [AGGREGATION_RULE]: { clusterRoleSelectors: 1 },
    [def('Role')]: { metadata: 1, rules: 2 },
    [def('ClusterRole')]: { metadata: 1, rules: 2, aggregationRule: pointer(3) },
    [def('RoleBinding')]: { metadata: 1, subjects: 2, roleRef: 3 },
    [def('ClusterRoleBinding')]: { metadata: 1, subjects: 2, roleRef: 3 },
    ...Object.fromEntries(kinds.map((k) => [def(`${k}List`), { metadata: 1, items: 2 }])),
  },
};

export const rbacV1Modules: readonly APIModule[] = [rbacV1Module];
