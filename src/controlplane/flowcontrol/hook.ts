// The flowcontrol configuration controller for the served groups: built when
// flowcontrol.apiserver.k8s.io/v1 is served, started by kube's post-start hook
// `apiserver/bootstrap-system-flowcontrol-configuration`, which completes once the mandatory and
// suggested objects are in force.
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { isCreater, isLister, isUpdater, isWatcher, type Storage } from '../../registry/rest/capabilities.js';
import type { PostStartHook } from '../../server/lifecycle/hooks.js';
import type { Logger } from '../../server/logging/logger.js';
import { FlowControlConfigController, type ResourceStore } from './config-controller.js';

export const flowControlHookName = 'apiserver/bootstrap-system-flowcontrol-configuration';

const isStore = (s: Storage | undefined): s is Storage & ResourceStore =>
  s !== undefined && isLister(s) && isWatcher(s) && isCreater(s) && isUpdater(s);

export interface FlowControl {
  readonly controller: FlowControlConfigController;
  readonly hooks: Record<string, PostStartHook>;
}

/** The controller and its hook, or undefined when flowcontrol v1 is not served. */
export function flowControlFor(
  groups: readonly APIGroupInfo[],
  logger: Logger,
  now?: () => number,
): FlowControl | undefined {
  const v1 = groups.find((g) => g.group === 'flowcontrol.apiserver.k8s.io')?.versionedResourcesStorageMap[
    'v1'
  ];
  const flowSchemas = v1?.['flowschemas'];
  const flowSchemaStatus = v1?.['flowschemas/status'];
  const priorityLevels = v1?.['prioritylevelconfigurations'];
  if (
    !isStore(flowSchemas) ||
    !isStore(priorityLevels) ||
    flowSchemaStatus === undefined ||
    !isUpdater(flowSchemaStatus)
  ) {
    return undefined;
  }
  const controller = new FlowControlConfigController(
    { flowSchemas, flowSchemaStatus, priorityLevels },
    logger,
    now,
  );
  const hook: PostStartHook = (ctx) => {
    ctx.signal.addEventListener('abort', () => void controller.close(), { once: true });
    return controller.run();
  };
  return { controller, hooks: { [flowControlHookName]: hook } };
}
