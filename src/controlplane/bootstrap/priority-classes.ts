// The system priority classes kube-apiserver creates at start (the
// `scheduling/bootstrap-system-priority-classes` post-start hook of
// pkg/registry/scheduling/rest/storage_scheduling.go): system-node-critical and
// system-cluster-critical, created through the registry; AlreadyExists means done, other failures
// (storage not ready yet) are retried until the server shuts down.
import { systemPriorityClasses } from '../../registry/scheduling/priorityclass/strategy.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import type { Creater, Storage } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import type { HookContext, PostStartHook } from '../../server/lifecycle/hooks.js';
import { createIfMissing, retryUntilDone } from './retry.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';

export const systemPriorityClassesHookName = 'scheduling/bootstrap-system-priority-classes';

async function ensureClass(classes: Creater, index: number, ctx: HookContext): Promise<void> {
  const pc = systemPriorityClasses[index];
  if (pc === undefined) return;
  await retryUntilDone(
    ctx,
    { message: 'unable to create a system priority class, retrying', fields: { name: pc.metadata?.name } },
    () =>
      createIfMissing(async () => {
        const obj = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', ...deepCopyJSON(pc) };
        await classes.create(internalContext({ signal: ctx.signal }), obj, { options: {} });
        ctx.logger.v(2, 'created PriorityClass', { name: pc.metadata?.name });
      }),
  );
}

/** The hook that creates the system priority classes. */
export function systemPriorityClassesHook(classes: Creater): PostStartHook {
  return async (ctx) => {
    await Promise.all(systemPriorityClasses.map((_, i) => ensureClass(classes, i, ctx)));
  };
}

const isCreater = (s: Storage | undefined): s is Storage & Creater =>
  s !== undefined && typeof (s as Partial<Creater>).create === 'function';

/** The hook by name when scheduling.k8s.io/v1 priorityclasses are served, else none. */
export function priorityClassHooks(groups: readonly APIGroupInfo[]): Record<string, PostStartHook> {
  const storage = groups.find((g) => g.group === 'scheduling.k8s.io')?.versionedResourcesStorageMap.v1
    ?.priorityclasses;
  return isCreater(storage) ? { [systemPriorityClassesHookName]: systemPriorityClassesHook(storage) } : {};
}
