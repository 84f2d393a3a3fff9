// The default ServiceCIDR kube-apiserver keeps (the `start-kubernetes-service-cidr-controller`
// post-start hook, pkg/controlplane/controller/defaultservicecidr): a cluster-scoped ServiceCIDR
// named `kubernetes` holding --service-cluster-ip-range, made dual-stack when a second range is
// added, and marked Ready once its CIDRs match the flags. Synced at start, then every 10 s as kube
// does, which recreates it once a deletion went through; a sync with nothing to do writes nothing.
import type { ServiceCIDR } from '../../api/networking/v1/service-cidr.js';
import { serviceCIDRConditionReady } from '../../api/networking/v1/service-cidr.js';
import { reasonForError } from '../../machinery/errors/index.js';
import type { Clock } from '../../machinery/time/clock.js';
import { rfc3339 } from '../../machinery/time/rfc3339.js';
import { formatCIDR } from '../../registry/core/service/ip-net.js';
import type { ServiceIPRanges } from '../../registry/core/service/service-ip-ranges.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import {
  isCreater,
  isGetter,
  isUpdater,
  type Creater,
  type Getter,
  type Storage,
  type Updater,
} from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import type { HookContext, PostStartHook } from '../../server/lifecycle/hooks.js';
import { errorText } from '../../server/logging/error-text.js';
import { retryUntilDone } from './retry.js';

export const defaultServiceCIDRHookName = 'start-kubernetes-service-cidr-controller';
export const defaultServiceCIDRName = 'kubernetes';

/** How often the default ServiceCIDR is synced after the start (kube's 10 s). */
export const defaultServiceCIDRResyncMs = 10_000;

interface DefaultServiceCIDRInit {
  readonly cidrs: Storage & Creater & Getter & Updater;
  readonly status: Storage & Getter & Updater;
  readonly ranges: ServiceIPRanges;
  readonly clock: Clock;
}

const sameCIDRs = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((c, i) => c === b[i]);

const replace = (obj: ServiceCIDR) => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

async function getOrCreate(
  init: DefaultServiceCIDRInit,
  want: string[],
  ctx: HookContext,
): Promise<ServiceCIDR> {
  const rctx = internalContext({ signal: ctx.signal });
  try {
    return (await init.cidrs.get(rctx, defaultServiceCIDRName, {})) as ServiceCIDR;
  } catch (err) {
    if (reasonForError(err) !== 'NotFound') throw err;
  }
  ctx.logger.v(1, 'creating the default ServiceCIDR', { cidrs: want.join(',') });
  const obj: ServiceCIDR = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'ServiceCIDR',
    metadata: { name: defaultServiceCIDRName },
    spec: { cidrs: want },
  };
  return (await init.cidrs.create(rctx, obj, { options: {} })) as ServiceCIDR;
}

/** One sync: create, upgrade single- to dual-stack, or mark Ready (sync and syncStatus). */
async function syncDefaultServiceCIDR(init: DefaultServiceCIDRInit, ctx: HookContext): Promise<void> {
  const { primary, secondary } = init.ranges;
  const want = [formatCIDR(primary), ...(secondary === undefined ? [] : [formatCIDR(secondary)])];
  const current = await getOrCreate(init, want, ctx);
  const have = current.spec?.cidrs ?? [];
  const rctx = internalContext({ signal: ctx.signal });
  if (want.length === 2 && have.length === 1 && have[0] === want[0]) {
    await init.cidrs.update(rctx, defaultServiceCIDRName, replace({ ...current, spec: { cidrs: want } }));
    return;
  }
  if (current.metadata?.deletionTimestamp !== undefined || !sameCIDRs(want, have)) {
    if (!sameCIDRs(want, have)) {
      ctx.logger.info('the default ServiceCIDR does not match --service-cluster-ip-range', {
        want: want.join(','),
        have: have.join(','),
      });
    }
    return;
  }
  const ready = current.status?.conditions?.find((c) => c.type === serviceCIDRConditionReady);
  if (ready !== undefined && ready.status !== 'Unknown') return;
  const conditions = (current.status?.conditions ?? []).filter((c) => c.type !== serviceCIDRConditionReady);
  conditions.push({
    type: serviceCIDRConditionReady,
    status: 'True',
    lastTransitionTime: rfc3339(new Date(init.clock.now())),
    reason: '',
    message: 'Kubernetes default Service CIDR is ready',
  });
  await init.status.update(rctx, defaultServiceCIDRName, replace({ ...current, status: { conditions } }));
}

const writable = (s: Storage | undefined): (Storage & Creater & Getter & Updater) | undefined =>
  s !== undefined && isCreater(s) && isGetter(s) && isUpdater(s) ? s : undefined;

/** The hook by name when networking.k8s.io/v1 servicecidrs are served, else none. */
export function defaultServiceCIDRHooks(
  groups: readonly APIGroupInfo[],
  at: { readonly serviceIPRanges: ServiceIPRanges; readonly clock: Clock },
): Record<string, PostStartHook> {
  const v1 = groups.find((g) => g.group === 'networking.k8s.io')?.versionedResourcesStorageMap['v1'];
  const cidrs = writable(v1?.servicecidrs);
  const status = v1?.['servicecidrs/status'];
  if (cidrs === undefined || status === undefined || !isGetter(status) || !isUpdater(status)) return {};
  const init: DefaultServiceCIDRInit = { cidrs, status, ranges: at.serviceIPRanges, clock: at.clock };
  return {
    [defaultServiceCIDRHookName]: async (ctx) => {
      await retryUntilDone(ctx, { message: 'unable to sync the default ServiceCIDR, retrying' }, () =>
        syncDefaultServiceCIDR(init, ctx),
      );
      if (ctx.signal.aborted) return;
      resyncEvery(init, ctx);
    },
  };
}

/** The periodic sync, until the server shuts down; a sync still running is not started again. */
function resyncEvery(init: DefaultServiceCIDRInit, ctx: HookContext): void {
  let running = false;
  const timer = init.clock.setInterval(() => {
    if (running) return;
    running = true;
    syncDefaultServiceCIDR(init, ctx)
      .catch((err: unknown) => {
        ctx.logger.v(2, 'unable to sync the default ServiceCIDR', { err: errorText(err) });
      })
      .finally(() => {
        running = false;
      });
  }, defaultServiceCIDRResyncMs);
  ctx.signal.addEventListener(
    'abort',
    () => {
      timer.cancel();
    },
    { once: true },
  );
}
