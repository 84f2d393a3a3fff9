// What RBAC authorization needs from the control plane: the RBAC index kept current by list and
// watch on the four RBAC stores (kube's shared informers; the lists ask for resourceVersion "0" so
// the watch cache answers, and each list replaces what the index held), and the `rbac/bootstrap-roles`
// post-start hook that reconciles kube's default policy (rbac-bootstrap.ts).
import { rbacGroup } from '../../api/rbac/v1/rbac.js';
import { RBACIndex, rbacResources, type RBACResource } from '../../registry/rbac/authorizer.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import {
  isCreater,
  isGetter,
  isLister,
  isWatcher,
  type Creater,
  type Getter,
  type Storage,
} from '../../registry/rest/capabilities.js';
import { runListWatch } from '../controllers/list-watch.js';
import type { PostStartHook } from '../../server/lifecycle/hooks.js';
import type { Logger } from '../../server/logging/logger.js';
import { authorizerForChain, modeNode, modeRBAC } from '../../server/authorization/modes.js';
import { NodeAuthorization } from './node/node-authorization.js';
import { RBACAuthorizer } from '../../registry/rbac/authorizer.js';
import type { Authorizer } from '../../registry/rest/authorizer.js';
import { errorText } from '../../server/logging/error-text.js';
import { policyKinds, RBACPolicyReconciler } from './rbac-bootstrap.js';
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

const namespacesIn = (groups: readonly APIGroupInfo[]): (Getter & Creater) | undefined => {
  const s = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1']?.['namespaces'];
  return s !== undefined && isGetter(s) && isCreater(s) ? s : undefined;
};

/**
 * `rbac/bootstrap-roles`, added whenever the RBAC group is served (kube adds it with the group, not
 * with the RBAC authorizer). With an RBAC index the hook ends once the index holds the policy, so a
 * ready server authorizes by it.
 */
export function rbacBootstrapHooks(
  groups: readonly APIGroupInfo[],
  index: RBACIndex | undefined,
): Record<string, PostStartHook> {
  const kinds = policyKinds(groups);
  if (
    !kinds.some((k) => k.resource === 'clusterroles') ||
    !kinds.some((k) => k.resource === 'clusterrolebindings')
  )
    return {};
  const reconciler = new RBACPolicyReconciler(kinds, namespacesIn(groups));
  const hook: PostStartHook = async (ctx) => {
    await reconciler.ensure(ctx);
    if (index === undefined) return;
    const present = (): boolean =>
      kinds.every((k) =>
        k.expected.every((o) => index.has(k.resource, o.metadata?.namespace ?? '', o.metadata?.name ?? '')),
      );
    await waitForIndex(index, present, ctx.signal);
  };
  return { [rbacBootstrapRolesHookName]: hook };
}

/**
 * --authorization-mode for the API assembly: the authorizer (handed to the access reviews before the
 * stores exist, and to the server's filter), with RBAC the index, started once the groups are
 * built, and the bootstrap hook whatever the modes.
 */
export class ControlPlaneAuthorization {
  readonly authorizer: Authorizer;
  readonly #index: RBACIndex | undefined;
  readonly #node: NodeAuthorization | undefined;
  readonly #logger: Logger;
  #stop: (() => Promise<void>) | undefined;

  /** `webhooks`: the chain's webhook authorizers, in order (webhookAuthorizersOf). */
  constructor(modes: readonly string[], logger: Logger, webhooks: readonly Authorizer[] = []) {
    this.#logger = logger;
    const index = modes.includes(modeRBAC) ? new RBACIndex() : undefined;
    this.#index = index;
    const node = modes.includes(modeNode) ? new NodeAuthorization(logger) : undefined;
    this.#node = node;
    this.authorizer = authorizerForChain(modes, {
      rbac: () => new RBACAuthorizer(index ?? new RBACIndex()),
      ...(node === undefined ? {} : { node: () => node.authorizer }),
      webhooks,
    });
  }

  /** Starts the RBAC index and the Node authorizer's graph over the built groups (each with its mode). */
  start(groups: readonly APIGroupInfo[]): void {
    this.#node?.start(groups);
    if (this.#index === undefined || this.#stop !== undefined) return;
    this.#stop = startRBACIndex(this.#index, groups, this.#logger);
  }

  postStartHooks(groups: readonly APIGroupInfo[]): Record<string, PostStartHook> {
    return rbacBootstrapHooks(groups, this.#index);
  }

  async close(): Promise<void> {
    await Promise.all([this.#stop?.(), this.#node?.close()]);
  }
}
