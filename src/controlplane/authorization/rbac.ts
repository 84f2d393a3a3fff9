// What RBAC authorization needs from the control plane: the RBAC index kept current by list and
// watch on the four RBAC stores (kube's shared informers; the lists ask for resourceVersion "0" so
// the watch cache answers, and each list replaces what the index held), and the `rbac/bootstrap-roles` post-start hook that creates kube's
// default roles and bindings when they are missing (pkg/registry/rbac/rest/storage_rbac.go).
import type { KubeObject } from '../../api/meta.js';
import { rbacGroup } from '../../api/rbac/v1/rbac.js';
import { RBACIndex, rbacResources, type RBACResource } from '../../registry/rbac/authorizer.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from '../../registry/rbac/bootstrap-policy.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import {
  isCreater,
  isLister,
  isWatcher,
  type Creater,
  type Storage,
} from '../../registry/rest/capabilities.js';
import { runListWatch } from '../controllers/list-watch.js';
import { internalContext } from '../../registry/rest/context.js';
import type { HookContext, PostStartHook } from '../../server/lifecycle/hooks.js';
import type { Logger } from '../../server/logging/logger.js';
import { authorizerForModes, modeRBAC } from '../../server/authorization/modes.js';
import { RBACAuthorizer } from '../../registry/rbac/authorizer.js';
import type { Authorizer } from '../../registry/rest/authorizer.js';
import { errorText } from '../../server/logging/error-text.js';
import { createIfMissing, retryUntilDone } from '../bootstrap/retry.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';
import { stopReason } from '../../machinery/errors/stop-reason.js';

export const rbacBootstrapRolesHookName = 'rbac/bootstrap-roles';

function rbacStorage(groups: readonly APIGroupInfo[], resource: RBACResource): Storage | undefined {
  return groups.find((g) => g.group === rbacGroup)?.versionedResourcesStorageMap['v1']?.[resource];
}

/**
 * Starts keeping `index` current from the served RBAC stores; returns the stop. A kind that is not
 * served (turned off by --runtime-config) is an empty list for good, so authorization does not wait
 * for it.
 */
export function startRBACIndex(
  index: RBACIndex,
  groups: readonly APIGroupInfo[],
  logger: Logger,
): () => Promise<void> {
  const abort = new AbortController();
  const loops: Promise<void>[] = [];
  for (const resource of rbacResources) {
    const source = rbacStorage(groups, resource);
    if (source === undefined || !isLister(source) || !isWatcher(source)) {
      index.replace(resource, []);
      continue;
    }
    loops.push(
      runListWatch({
        source,
        signal: abort.signal,
        listResourceVersion: '0',
        onList: (items) => {
          index.replace(resource, items);
        },
        onEvent: (type, obj) => {
          index.apply(resource, type, obj);
        },
        onError: (err) => {
          logger.v(2, 'RBAC watch failed, relisting', { resource, err: errorText(err) });
        },
      }),
    );
  }
  return async () => {
    abort.abort(stopReason);
    await Promise.all(loops);
  };
}

/** Resolves once `done()` holds for the index, or when `signal` aborts. */
function waitForIndex(index: RBACIndex, done: () => boolean, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (done() || signal.aborted) {
      resolve();
      return;
    }
    const finish = (): void => {
      unsubscribe();
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const unsubscribe = index.onChange(() => {
      if (done()) finish();
    });
    signal.addEventListener('abort', finish, { once: true });
  });
}

async function ensureAll(ctx: HookContext, storage: Creater, objects: readonly KubeObject[]): Promise<void> {
  await Promise.all(
    objects.map((obj) =>
      retryUntilDone(
        ctx,
        {
          message: 'unable to create an RBAC bootstrap object, retrying',
          fields: { kind: obj.kind, name: obj.metadata?.name },
        },
        () =>
          createIfMissing(async () => {
            await storage.create(internalContext({ signal: ctx.signal }), deepCopyJSON(obj), {
              options: {},
            });
            ctx.logger.v(2, `created ${obj.kind}`, { name: obj.metadata?.name });
          }),
      ),
    ),
  );
}

/**
 * `rbac/bootstrap-roles`: kube's default cluster roles and bindings, created when missing (a restart
 * keeps what is there). The hook ends once the index holds them, so a ready server authorizes by
 * them.
 */
export function rbacBootstrapHooks(
  groups: readonly APIGroupInfo[],
  index: RBACIndex,
): Record<string, PostStartHook> {
  const roles = rbacStorage(groups, 'clusterroles');
  const bindings = rbacStorage(groups, 'clusterrolebindings');
  if (roles === undefined || bindings === undefined || !isCreater(roles) || !isCreater(bindings)) return {};
  const hook: PostStartHook = async (ctx) => {
    await Promise.all([
      ensureAll(ctx, roles, bootstrapClusterRoles),
      ensureAll(ctx, bindings, bootstrapClusterRoleBindings),
    ]);
    const present = (): boolean =>
      bootstrapClusterRoles.every((r) => index.has('clusterroles', '', r.metadata?.name ?? '')) &&
      bootstrapClusterRoleBindings.every((b) => index.has('clusterrolebindings', '', b.metadata?.name ?? ''));
    await waitForIndex(index, present, ctx.signal);
  };
  return { [rbacBootstrapRolesHookName]: hook };
}

/**
 * --authorization-mode for the API assembly: the authorizer (handed to the access reviews before the
 * stores exist, and to the server's filter), and with RBAC the index, started once the groups are
 * built, and the bootstrap hook.
 */
export class ControlPlaneAuthorization {
  readonly authorizer: Authorizer;
  readonly #index: RBACIndex | undefined;
  readonly #logger: Logger;
  #stop: (() => Promise<void>) | undefined;

  constructor(modes: readonly string[], logger: Logger) {
    this.#logger = logger;
    const index = modes.includes(modeRBAC) ? new RBACIndex() : undefined;
    this.#index = index;
    this.authorizer = authorizerForModes(modes, () => new RBACAuthorizer(index ?? new RBACIndex()));
  }

  /** Starts the RBAC index over the built groups (nothing without RBAC). */
  start(groups: readonly APIGroupInfo[]): void {
    if (this.#index === undefined || this.#stop !== undefined) return;
    this.#stop = startRBACIndex(this.#index, groups, this.#logger);
  }

  postStartHooks(groups: readonly APIGroupInfo[]): Record<string, PostStartHook> {
    return this.#index === undefined ? {} : rbacBootstrapHooks(groups, this.#index);
  }

  async close(): Promise<void> {
    await this.#stop?.();
  }
}
