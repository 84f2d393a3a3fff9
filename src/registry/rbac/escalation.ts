// RBAC's privilege-escalation prevention (pkg/registry/rbac/escalation_check.go, validation/rule.go
// ConfirmNoEscalation and the four */policybased stores; the rule arithmetic is in policy-rules.ts): a Role or ClusterRole may only be written by someone who holds every
// rule it grants (or may `escalate` it), a binding only by someone who holds every rule of the role
// it names (or may `bind` it). Members of system:masters, as the server's own callers are, skip the
// check. As kube's registry-backed rule resolver, the rules are read from the stores themselves (not
// from the authorizer's index, which trails them), so a check sees every write made before it and
// works in every authorization mode.
import { semanticEqual } from '../../machinery/json/semantic-equal.js';
import type { KubeObject } from '../../api/meta.js';
import {
  rbacGroup,
  type ClusterRole,
  type PolicyRule,
  type Role,
  type RoleBinding,
} from '../../api/rbac/v1/rbac.js';
import { newForbidden, newNotFound } from '../../machinery/errors/index.js';
import type { Store } from '../generic/store.js';
import { WriteCheckedStore, type WriteRequest } from '../generic/write-checked-store.js';
import type { AuthorizationAttributes, Authorizer } from '../rest/authorizer.js';
import type { Lister } from '../rest/capabilities.js';
import { internalContext, type RequestContext, type UserInfo } from '../rest/context.js';
import { appliesToUser, RBACIndex, rbacResources, type RBACResource } from './authorizer.js';
import { goQuote } from '../../machinery/validation/index.js';
import { escalationMessage } from './policy-rules.js';

// --- rule resolution from the stores (validation.DefaultRuleResolver over the registries) ---

const namespacedKinds: ReadonlySet<RBACResource> = new Set(['roles', 'rolebindings']);

/** What a user holds, read from the RBAC stores at the time of the check. */
export class RBACStoreRuleResolver {
  readonly #stores = new Map<RBACResource, Lister>();

  /** The store a kind is read from; a kind without one holds nothing. */
  register(resource: RBACResource, store: Lister): void {
    this.#stores.set(resource, store);
  }

  /** The cluster-wide kinds and the namespaced ones of `namespace`, as an index. */
  async snapshot(namespace: string, signal?: AbortSignal): Promise<RBACIndex> {
    const index = new RBACIndex();
    const lists = await Promise.all(
      rbacResources.map(async (resource) => {
        const store = this.#stores.get(resource);
        const namespaced = namespacedKinds.has(resource);
        if (store === undefined || (namespaced && namespace === '')) return [];
        const ctx = internalContext({
          namespace: namespaced ? namespace : '',
          ...(signal ? { signal } : {}),
        });
        return (await store.list(ctx, {})).items;
      }),
    );
    rbacResources.forEach((resource, i) => {
      index.replace(resource, lists[i] ?? []);
    });
    return index;
  }
}

const roleRefResource = (kind: string): 'roles' | 'clusterroles' | undefined =>
  kind === 'Role' ? 'roles' : kind === 'ClusterRole' ? 'clusterroles' : undefined;

/** GetRoleReferenceRules: the role's rules, or the registry's NotFound. */
function roleRefRules(
  index: RBACIndex,
  ref: RoleBinding['roleRef'],
  namespace: string,
): readonly PolicyRule[] | Error {
  const role = ref.kind === 'Role' ? index.role(namespace, ref.name) : undefined;
  const rules = ref.kind === 'ClusterRole' ? index.clusterRoleRules(ref.name) : role && (role.rules ?? []);
  if (rules !== undefined) return rules;
  const resource = roleRefResource(ref.kind);
  if (resource === undefined) return new Error(`unsupported role reference kind: ${goQuote(ref.kind)}`);
  return newNotFound({ group: rbacGroup, resource }, ref.name);
}

/** RulesFor: every rule the user's bindings grant in `namespace` (cluster-wide ones included). */
export function rulesHeld(
  index: RBACIndex,
  user: UserInfo,
  namespace: string,
): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  const visit = (binding: RoleBinding, ns: string): void => {
    if (!(binding.subjects ?? []).some((s) => appliesToUser(user, s, ns))) return;
    const got = roleRefRules(index, binding.roleRef, ns);
    if (got instanceof Error) errors.push(got.message);
    else rules.push(...got);
  };
  for (const b of index.clusterRoleBindings()) visit(b, '');
  if (namespace !== '') for (const b of index.roleBindings(namespace)) visit(b, namespace);
  return { rules, errors };
}

// --- the checks (escalation_check.go and the policybased stores) ---

const systemPrivilegedGroup = 'system:masters';

/** EscalationAllowed: system:masters (the server's own callers among them) may write anything. */
export const escalationAllowed = (user: UserInfo): boolean => user.groups.includes(systemPrivilegedGroup);

/** `*` on everything: what setting an aggregationRule needs. */
const fullAuthority: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

const hasAggregationRule = (role: ClusterRole | null): boolean =>
  (role?.aggregationRule?.clusterRoleSelectors ?? []).length > 0;

/** kube's rbacregistry.IsOnlyMutatingGCFields: nothing but ownerReferences and finalizers change. */
function onlyGCFieldsChange(obj: KubeObject, old: KubeObject | null): boolean {
  if (old === null) return false;
  const { ownerReferences, finalizers, selfLink, managedFields } = old.metadata ?? {};
  const meta = { ...obj.metadata, ownerReferences, finalizers, selfLink, managedFields };
  return semanticEqual({ ...obj, metadata: meta }, old);
}

/** The escalation checks of the four RBAC stores of one server. */
export class RBACEscalationPolicy {
  readonly #authorizer: Authorizer;
  readonly resolver = new RBACStoreRuleResolver();

  constructor(authorizer: Authorizer) {
    this.#authorizer = authorizer;
  }

  /** The store, registered for rule resolution and checking its creates and updates. */
  guard<T extends KubeObject>(resource: RBACResource, store: Store<T>): Store<T> {
    this.resolver.register(resource, store);
    const check =
      resource === 'roles' || resource === 'clusterroles'
        ? (ctx: RequestContext, req: WriteRequest<KubeObject>) => this.checkRole(ctx, { resource, ...req })
        : (ctx: RequestContext, req: WriteRequest<KubeObject>) =>
            this.checkBinding(ctx, { resource, ...req });
    return new WriteCheckedStore<T>(store, check);
  }

  async #allowed(attrs: AuthorizationAttributes): Promise<boolean> {
    try {
      return (await this.#authorizer.authorize(attrs)).decision === 'Allow';
    } catch {
      // kube logs the error and goes by the decision, which is not Allow.
      return false;
    }
  }

  /** ConfirmNoEscalation in the request's namespace: the refusal text, or undefined. */
  #confirm(ctx: RequestContext, wanted: readonly PolicyRule[], index: RBACIndex): string | undefined {
    const held = rulesHeld(index, ctx.user, ctx.namespace);
    return escalationMessage(ctx.user, { held: held.rules, wanted, errors: held.errors });
  }

  /** Role and ClusterRole creates and updates (role/ and clusterrole/policybased). */
  async checkRole(
    ctx: RequestContext,
    req: WriteRequest<KubeObject> & { readonly resource: 'roles' | 'clusterroles' },
  ): Promise<void> {
    if (escalationAllowed(ctx.user)) return;
    // RoleEscalationAuthorized: `escalate` on the role of the URL.
    const escalate = await this.#allowed({
      user: ctx.user,
      verb: 'escalate',
      resourceRequest: true,
      apiGroup: rbacGroup,
      apiVersion: '*',
      resource: req.resource,
      name: req.name,
      namespace: ctx.namespace,
    });
    if (escalate || onlyGCFieldsChange(req.obj, req.old)) return;
    const role = req.obj as Role;
    const qr = { group: rbacGroup, resource: req.resource };
    const name = role.metadata?.name ?? '';
    const index = await this.resolver.snapshot(ctx.namespace, ctx.signal);
    const refusal = this.#confirm(ctx, role.rules ?? [], index);
    if (refusal !== undefined) throw newForbidden(qr, name, refusal);
    if (req.resource !== 'clusterroles') return;
    // An aggregationRule can gather anything (and keep a role from being narrowed): `*` on `*.*`.
    if (!hasAggregationRule(role) && !hasAggregationRule(req.old)) return;
    if (this.#confirm(ctx, fullAuthority, index) !== undefined)
      throw newForbidden(qr, name, 'must have cluster-admin privileges to use the aggregationRule');
  }

  /** RoleBinding and ClusterRoleBinding creates and updates (rolebinding/ and clusterrolebinding/policybased). */
  async checkBinding(
    ctx: RequestContext,
    req: WriteRequest<KubeObject> & { readonly resource: 'rolebindings' | 'clusterrolebindings' },
  ): Promise<void> {
    if (escalationAllowed(ctx.user) || onlyGCFieldsChange(req.obj, req.old)) return;
    const binding = req.obj as Partial<RoleBinding>;
    const ref = binding.roleRef;
    const refResource = ref === undefined ? undefined : roleRefResource(ref.kind);
    // A missing or foreign roleRef is refused by validation, which follows.
    if (ref === undefined || refResource === undefined) return;
    const namespace = req.resource === 'rolebindings' ? ctx.namespace : '';
    // BindingAuthorized: `bind` on the role, in the binding's namespace.
    const bind = await this.#allowed({
      user: ctx.user,
      verb: 'bind',
      resourceRequest: true,
      namespace,
      apiGroup: ref.apiGroup,
      resource: refResource,
      name: ref.name,
    });
    if (bind) return;
    const index = await this.resolver.snapshot(ctx.namespace, ctx.signal);
    const rules = roleRefRules(index, ref, namespace);
    if (rules instanceof Error) throw rules;
    const refusal = this.#confirm(ctx, rules, index);
    if (refusal !== undefined)
      throw newForbidden({ group: rbacGroup, resource: req.resource }, binding.metadata?.name ?? '', refusal);
  }
}
