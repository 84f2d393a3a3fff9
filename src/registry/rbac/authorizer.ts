// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac/rbac.go and pkg/registry/rbac/validation/
// rule.go): ClusterRoleBindings grant their ClusterRole everywhere, RoleBindings grant a Role of their
// namespace or a ClusterRole within their namespace. It reads an in-memory index of the four kinds
// (fed by list and watch, see src/controlplane/authorization/rbac.ts), so a decision costs no storage
// read. An aggregated ClusterRole grants the rules stored in it, which the clusterrole aggregation
// controller keeps (src/controlplane/controllers/clusterroleaggregation).
import type { ClusterRole, PolicyRule, Role, RoleBinding, RoleRef, Subject } from '../../api/rbac/v1/rbac.js';
import type { KubeObject } from '../../api/meta.js';
import type {
  AuthorizationAttributes,
  AuthorizationResult,
  Authorizer,
  NonResourceRuleInfo,
  ResourceRuleInfo,
  UserRules,
} from '../rest/authorizer.js';
import type { UserInfo } from '../rest/context.js';

export type RBACResource = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';
export const rbacResources: readonly RBACResource[] = [
  'roles',
  'clusterroles',
  'rolebindings',
  'clusterrolebindings',
];

const keyOf = (obj: KubeObject): string => `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

/** The RBAC objects the authorizer reads, kept current by list and watch. */
export class RBACIndex {
  readonly #objects: Record<RBACResource, Map<string, KubeObject>> = {
    roles: new Map(),
    clusterroles: new Map(),
    rolebindings: new Map(),
    clusterrolebindings: new Map(),
  };
  /** Role bindings by namespace, rebuilt lazily after a change. */
  #bindingsByNamespace: Map<string, RoleBinding[]> | undefined;
  readonly #syncedKinds = new Set<RBACResource>();
  readonly #listeners = new Set<() => void>();
  #resolveSynced: () => void = () => undefined;
  readonly #synced = new Promise<void>((resolve) => {
    this.#resolveSynced = resolve;
  });

  /** True once every kind has been listed. */
  get isSynced(): boolean {
    return this.#syncedKinds.size === rbacResources.length;
  }

  /** Resolves once every kind has been listed. */
  get synced(): Promise<void> {
    return this.#synced;
  }

  /** A list's items: what was held of that kind before is dropped. */
  replace(resource: RBACResource, items: readonly KubeObject[]): void {
    const map = this.#objects[resource];
    map.clear();
    for (const item of items) map.set(keyOf(item), item);
    this.#changed(resource);
    this.#syncedKinds.add(resource);
    if (this.isSynced) this.#resolveSynced();
  }

  /** One watch event. */
  apply(resource: RBACResource, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): void {
    const map = this.#objects[resource];
    if (type === 'DELETED') map.delete(keyOf(obj));
    else map.set(keyOf(obj), obj);
    this.#changed(resource);
  }

  /** Called after every change; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  has(resource: RBACResource, namespace: string, name: string): boolean {
    return this.#objects[resource].has(`${namespace}/${name}`);
  }

  #changed(resource: RBACResource): void {
    if (resource === 'rolebindings') this.#bindingsByNamespace = undefined;
    for (const listener of this.#listeners) listener();
  }

  clusterRoleBindings(): Iterable<RoleBinding> {
    return this.#objects.clusterrolebindings.values() as Iterable<RoleBinding>;
  }

  roleBindings(namespace: string): readonly RoleBinding[] {
    if (this.#bindingsByNamespace === undefined) {
      const byNs = new Map<string, RoleBinding[]>();
      for (const b of this.#objects.rolebindings.values()) {
        const ns = b.metadata?.namespace ?? '';
        const list = byNs.get(ns);
        if (list === undefined) byNs.set(ns, [b as RoleBinding]);
        else list.push(b as RoleBinding);
      }
      this.#bindingsByNamespace = byNs;
    }
    return this.#bindingsByNamespace.get(namespace) ?? [];
  }

  role(namespace: string, name: string): Role | undefined {
    const role: Role | undefined = this.#objects.roles.get(`${namespace}/${name}`);
    return role;
  }

  /**
   * A ClusterRole's rules as stored. An aggregated role's are what the clusterrole aggregation
   * controller last wrote into it, as kube's authorizer reads them.
   */
  clusterRoleRules(name: string): readonly PolicyRule[] | undefined {
    const role = this.#objects.clusterroles.get(`/${name}`) as ClusterRole | undefined;
    return role === undefined ? undefined : (role.rules ?? []);
  }
}

// --- rule matching (rbacv1helpers and validation.RuleAllows) ---

const has = (list: readonly string[] | undefined, value: string): boolean => list?.includes(value) ?? false;

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return has(rule.verbs, '*') || has(rule.verbs, verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return has(rule.apiGroups, '*') || has(rule.apiGroups, group);
}

/** `*`, the exact `resource[/subresource]`, or `*\/subresource` for a request of a subresource. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    if (subresource !== '' && r === `*/${subresource}`) return true;
  }
  return false;
}

/** No resourceNames means any name; otherwise the request's name (none for list or create) must be one. */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** `*`, the exact path, or a prefix ending in `*`. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === '*' || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(attrs: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, attrs.verb)) return false;
  if (!attrs.resourceRequest) return nonResourceURLMatches(rule, attrs.path ?? '');
  const subresource = attrs.subresource ?? '';
  const resource = attrs.resource ?? '';
  const combined = subresource === '' ? resource : `${resource}/${subresource}`;
  return (
    apiGroupMatches(rule, attrs.apiGroup ?? '') &&
    resourceMatches(rule, combined, subresource) &&
    resourceNameMatches(rule, attrs.name ?? '')
  );
}

// --- subjects and bindings (validation.appliesTo) ---

const serviceAccountPrefix = 'system:serviceaccount:';

/** Whether a binding's subject names the user; a ServiceAccount without a namespace takes the binding's. */
export function appliesToUser(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  const name = subject.name ?? '';
  switch (subject.kind) {
    case 'User':
      return user.name === name;
    case 'Group':
      return user.groups.includes(name);
    case 'ServiceAccount': {
      const ns =
        subject.namespace !== undefined && subject.namespace !== '' ? subject.namespace : bindingNamespace;
      return ns !== '' && user.name === `${serviceAccountPrefix}${ns}:${name}`;
    }
    default:
      return false;
  }
}

function applicableSubject(user: UserInfo, binding: RoleBinding, ns: string): Subject | undefined {
  return (binding.subjects ?? []).find((s) => appliesToUser(user, s, ns));
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') {
    const ns = s.namespace !== undefined && s.namespace !== '' ? s.namespace : bindingNamespace;
    return `${s.kind} ${JSON.stringify(`${s.name ?? ''}/${ns}`)}`;
  }
  return `${s.kind} ${JSON.stringify(s.name ?? '')}`;
}

interface RuleSource {
  readonly binding: RoleBinding;
  readonly subject: Subject;
  readonly cluster: boolean;
}

function describeSource(src: RuleSource): string {
  const { binding, subject } = src;
  const name = binding.metadata?.name ?? '';
  const ns = binding.metadata?.namespace ?? '';
  const ref = `${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)}`;
  if (src.cluster)
    return `ClusterRoleBinding ${JSON.stringify(name)} of ${ref} to ${describeSubject(subject, '')}`;
  return `RoleBinding ${JSON.stringify(`${name}/${ns}`)} of ${ref} to ${describeSubject(subject, ns)}`;
}

/** Visits a rule (or an error); returning false stops the walk. */
type RuleVisitor = (
  source: RuleSource | undefined,
  rule: PolicyRule | undefined,
  err: string | undefined,
) => boolean;

/** kube's aggregate error text: one message alone, several deduplicated within brackets. */
export function aggregateErrors(errs: readonly string[]): string {
  const unique = [...new Set(errs)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}

export class RBACAuthorizer implements Authorizer {
  readonly #index: RBACIndex;

  constructor(index: RBACIndex) {
    this.#index = index;
  }

  #roleRefRules(ref: RoleRef, bindingNamespace: string): readonly PolicyRule[] | string {
    switch (ref.kind) {
      case 'ClusterRole':
        return (
          this.#index.clusterRoleRules(ref.name) ??
          `clusterrole.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found`
        );
      case 'Role':
        return (
          this.#index.role(bindingNamespace, ref.name)?.rules ??
          `role.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found`
        );
      default:
        return `unsupported role reference kind: ${JSON.stringify(ref.kind)}`;
    }
  }

  /** validation.DefaultRuleResolver.VisitRulesFor. */
  #visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    for (const binding of this.#index.clusterRoleBindings()) {
      const subject = applicableSubject(user, binding, '');
      if (subject === undefined) continue;
      const rules = this.#roleRefRules(binding.roleRef, '');
      if (typeof rules === 'string') {
        if (!visit(undefined, undefined, rules)) return;
        continue;
      }
      const source: RuleSource = { binding, subject, cluster: true };
      for (const rule of rules) if (!visit(source, rule, undefined)) return;
    }
    if (namespace === '') return;
    for (const binding of this.#index.roleBindings(namespace)) {
      const subject = applicableSubject(user, binding, namespace);
      if (subject === undefined) continue;
      const rules = this.#roleRefRules(binding.roleRef, namespace);
      if (typeof rules === 'string') {
        if (!visit(undefined, undefined, rules)) return;
        continue;
      }
      const source: RuleSource = { binding, subject, cluster: false };
      for (const rule of rules) if (!visit(source, rule, undefined)) return;
    }
  }

  async authorize(attrs: AuthorizationAttributes): Promise<AuthorizationResult> {
    if (!this.#index.isSynced) await this.#index.synced;
    let allowedBy: RuleSource | undefined;
    const errors: string[] = [];
    this.#visitRulesFor(attrs.user, attrs.namespace ?? '', (source, rule, err) => {
      if (err !== undefined) errors.push(err);
      if (rule !== undefined && source !== undefined && ruleAllows(attrs, rule)) {
        allowedBy = source;
        return false;
      }
      return true;
    });
    if (allowedBy !== undefined)
      return { decision: 'Allow', reason: `RBAC: allowed by ${describeSource(allowedBy)}` };
    return { decision: 'NoOpinion', reason: errors.length === 0 ? '' : `RBAC: ${aggregateErrors(errors)}` };
  }

  async rulesFor(user: UserInfo, namespace: string): Promise<UserRules> {
    if (!this.#index.isSynced) await this.#index.synced;
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    const errors: string[] = [];
    this.#visitRulesFor(user, namespace, (_source, rule, err) => {
      if (err !== undefined) errors.push(err);
      if (rule === undefined) return true;
      const verbs = rule.verbs ?? [];
      if ((rule.resources ?? []).length > 0) {
        resourceRules.push({
          verbs: [...verbs],
          apiGroups: [...(rule.apiGroups ?? [])],
          resources: [...(rule.resources ?? [])],
          ...((rule.resourceNames ?? []).length === 0
            ? {}
            : { resourceNames: [...(rule.resourceNames ?? [])] }),
        });
      }
      if ((rule.nonResourceURLs ?? []).length > 0)
        nonResourceRules.push({ verbs: [...verbs], nonResourceURLs: [...(rule.nonResourceURLs ?? [])] });
      return true;
    });
    const evaluationError = aggregateErrors(errors);
    return {
      resourceRules,
      nonResourceRules,
      incomplete: false,
      ...(errors.length === 0 ? {} : { evaluationError }),
    };
  }
}
