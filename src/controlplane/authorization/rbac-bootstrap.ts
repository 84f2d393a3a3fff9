// The `rbac/bootstrap-roles` post-start hook (pkg/registry/rbac/rest/storage_rbac.go
// EnsureRBACPolicy): kube's default ClusterRoles, ClusterRoleBindings, Roles and RoleBindings are
// reconciled with what is stored whenever the RBAC group is served, whatever authorizes requests.
// Missing objects are created (a Role's namespace too when it is missing), and objects not
// annotated autoupdate "false" get the rules, subjects, selectors, labels and annotations they
// lack; a binding whose roleRef differs is deleted and created again. Each kind is listed once, so
// a restart over existing data only reads.
import type { KubeObject } from '../../api/meta.js';
import { rbacGroup, type RoleBinding } from '../../api/rbac/v1/rbac.js';
import { reasonForError } from '../../machinery/errors/index.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';
import type { RBACResource } from '../../registry/rbac/authorizer.js';
import {
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  bootstrapRoleBindings,
  bootstrapRoles,
} from '../../registry/rbac/bootstrap-policy.js';
import { compactString } from '../../registry/rbac/policy-rules.js';
import { reconcileBinding } from '../../registry/rbac/reconciliation/reconcile-binding.js';
import { reconcileRole, type ReconcileOperation } from '../../registry/rbac/reconciliation/reconcile-role.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import {
  isCreater,
  isGetter,
  isGracefulDeleter,
  isLister,
  isUpdater,
  type Creater,
  type Getter,
  type GracefulDeleter,
  type Lister,
  type Storage,
  type Updater,
} from '../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../registry/rest/context.js';
import type { HookContext } from '../../server/lifecycle/hooks.js';
import { createIfMissing, retryUntilDone } from '../bootstrap/retry.js';

type PolicyStore = Getter & Lister & Creater & Updater & GracefulDeleter;

interface Reconciled {
  readonly operation: ReconcileOperation;
  readonly protected: boolean;
  readonly object: KubeObject;
  /** What the stored object lacked, for the log (made only when logged). */
  readonly missing: () => string;
  /** The stored object's, for the delete of a recreate. */
  readonly uid?: string | undefined;
}

/** One kind of the policy: its store, kube's objects, and how one is reconciled. */
interface PolicyKind {
  readonly resource: RBACResource;
  readonly store: PolicyStore;
  readonly expected: readonly KubeObject[];
  readonly reconcile: (stored: KubeObject | undefined, expected: KubeObject) => Reconciled;
}

const asPolicyStore = (s: Storage | undefined): PolicyStore | undefined =>
  s !== undefined && isGetter(s) && isLister(s) && isCreater(s) && isUpdater(s) && isGracefulDeleter(s)
    ? s
    : undefined;

const roleReconciler = (stored: KubeObject | undefined, expected: KubeObject): Reconciled => {
  const r = reconcileRole(stored, expected);
  const missing = (): string => r.missingRules.map(compactString).join(', ');
  return { ...r, object: r.role, missing, uid: stored?.metadata?.uid };
};

const bindingReconciler = (stored: KubeObject | undefined, expected: KubeObject): Reconciled => {
  const r = reconcileBinding(stored as RoleBinding | undefined, expected as RoleBinding);
  const missing = (): string => r.missingSubjects.map((s) => `${s.kind}/${s.name ?? ''}`).join(', ');
  return { ...r, object: r.binding, missing, uid: stored?.metadata?.uid };
};

/** The kinds of the policy the served RBAC group has, in kube's order. */
export function policyKinds(groups: readonly APIGroupInfo[]): PolicyKind[] {
  const served = groups.find((g) => g.group === rbacGroup)?.versionedResourcesStorageMap['v1'] ?? {};
  const kinds: PolicyKind[] = [];
  const add = (
    resource: RBACResource,
    expected: readonly KubeObject[],
    reconcile: PolicyKind['reconcile'],
  ) => {
    const store = asPolicyStore(served[resource]);
    if (store !== undefined) kinds.push({ resource, store, expected, reconcile });
  };
  add('clusterroles', bootstrapClusterRoles, roleReconciler);
  add('clusterrolebindings', bootstrapClusterRoleBindings, bindingReconciler);
  add('roles', bootstrapRoles, roleReconciler);
  add('rolebindings', bootstrapRoleBindings, bindingReconciler);
  return kinds;
}

const keyOf = (obj: KubeObject): string => `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

/** The RBAC policy's reconciler over the served stores; `namespaces` creates a Role's namespace. */
export class RBACPolicyReconciler {
  readonly #kinds: readonly PolicyKind[];
  readonly #namespaces: (Getter & Creater) | undefined;

  constructor(kinds: readonly PolicyKind[], namespaces: (Getter & Creater) | undefined) {
    this.#kinds = kinds;
    this.#namespaces = namespaces;
  }

  /** Reconciles every object, retrying each until it is done or the hook's context ends. */
  async ensure(ctx: HookContext): Promise<void> {
    await Promise.all(this.#kinds.map((kind) => this.#ensureKind(ctx, kind)));
  }

  async #ensureKind(ctx: HookContext, kind: PolicyKind): Promise<void> {
    let stored = new Map<string, KubeObject>();
    await retryUntilDone(ctx, { message: `unable to initialize ${kind.resource}, retrying` }, async () => {
      const list = await kind.store.list(internalContext({ signal: ctx.signal }), {});
      stored = new Map(list.items.map((o) => [keyOf(o), o]));
    });
    await Promise.all(
      kind.expected.map((expected) => {
        let fresh = false;
        return retryUntilDone(
          ctx,
          { message: `unable to reconcile ${singular(kind)}, retrying`, fields: { name: keyOf(expected) } },
          async () => {
            // The list answers the first try; a retry (a conflict, a race) reads the object again.
            const current = fresh ? await this.#get(ctx, kind, expected) : stored.get(keyOf(expected));
            fresh = true;
            await this.#apply(ctx, kind, kind.reconcile(current, expected));
          },
        );
      }),
    );
  }

  async #get(ctx: HookContext, kind: PolicyKind, obj: KubeObject): Promise<KubeObject | undefined> {
    const rctx = internalContext({ namespace: obj.metadata?.namespace ?? '', signal: ctx.signal });
    try {
      return await kind.store.get(rctx, obj.metadata?.name ?? '', {});
    } catch (err) {
      if (reasonForError(err) === 'NotFound') return undefined;
      throw err;
    }
  }

  async #apply(ctx: HookContext, kind: PolicyKind, r: Reconciled): Promise<void> {
    if (r.operation === 'none') return;
    const name = qualifiedName(kind, r.object);
    if (r.protected) {
      ctx.logger.warn(`skipped reconcile-protected ${name}`, { missing: r.missing() });
      return;
    }
    const namespace = r.object.metadata?.namespace ?? '';
    const rctx = internalContext({ namespace, signal: ctx.signal });
    const objName = r.object.metadata?.name ?? '';
    switch (r.operation) {
      case 'update':
        await kind.store.update(rctx, objName, {
          objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(r.object) },
          options: {},
        });
        if (ctx.logger.enabled(2)) ctx.logger.v(2, `updated ${name}`, { missing: r.missing() });
        return;
      case 'recreate':
        await this.#delete(rctx, kind, r);
        break;
      case 'create':
        break;
    }
    if (namespace !== '') await this.#ensureNamespace(ctx, namespace);
    // AlreadyExists is a race with another writer: the retry reads what it made.
    await kind.store.create(rctx, deepCopyJSON(r.object), { options: {} });
    ctx.logger.v(2, `${r.operation === 'create' ? 'created' : 'recreated'} ${name}`);
  }

  /** Deletes the stored object by its uid; gone already is as good. */
  async #delete(rctx: RequestContext, kind: PolicyKind, r: Reconciled): Promise<void> {
    if (r.uid === undefined) return;
    try {
      await kind.store.delete(rctx, r.object.metadata?.name ?? '', {
        options: { preconditions: { uid: r.uid } },
      });
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
  }

  /** tryEnsureNamespace: a Role's namespace is created when missing. */
  async #ensureNamespace(ctx: HookContext, name: string): Promise<void> {
    const namespaces = this.#namespaces;
    if (namespaces === undefined) return;
    const rctx = internalContext({ signal: ctx.signal });
    try {
      await namespaces.get(rctx, name, {});
      return;
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
    await createIfMissing(() =>
      namespaces.create(rctx, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { options: {} }),
    );
  }
}

const singular = (kind: PolicyKind): string => kind.resource.slice(0, -1);

/** `clusterrole.rbac.authorization.k8s.io/<name>`, with ` in <namespace>` for a namespaced one. */
function qualifiedName(kind: PolicyKind, obj: KubeObject): string {
  const ns = obj.metadata?.namespace;
  return `${singular(kind)}.${rbacGroup}/${obj.metadata?.name ?? ''}${ns === undefined ? '' : ` in ${ns}`}`;
}
