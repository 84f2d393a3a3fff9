// The pod subresources a kubelet serves (pkg/registry/core/pod/rest/subresources.go and log.go):
// log, exec, attach, portforward and proxy. Each looks the pod up and checks the request as kube's
// LogLocation, ExecLocation, PortForwardLocation and ResourceLocation do; with no kubelet to reach,
// a pod without a node is 400 (its log is empty, as in kube) and one with a node is 503, which says
// so when the node is one that `--simulate` runs (its containers do not exist). The log of a pod on
// such a node is what its annotations say its containers printed (simulated-pod-log.ts).
import type { Pod } from '../../../api/core/v1/pod.js';
import { newBadRequest, newServiceUnavailable, type StatusError } from '../../../machinery/errors/index.js';
import { systemClock } from '../../../machinery/time/clock.js';
import { Store } from '../../generic/store.js';
import type { Getter } from '../../rest/capabilities.js';
import { internalContext, type RequestContext } from '../../rest/context.js';
import { isSimulatedNode } from '../node/simulated.js';
import { decodePodLogOptions, validatePodLogOptions } from './log-options.js';
import { simulatedPodLog } from './simulated-pod-log.js';
import {
  NoKubeletConnecter,
  noKubeletReachable,
  type NoKubeletConnecterInit,
  proxyConnectMethods,
  splitSchemeNamePort,
  upgradeConnectMethods,
} from '../../rest/no-kubelet-connecter.js';

async function getPod(pods: Getter, ctx: RequestContext, name: string): Promise<Pod> {
  return (await pods.get(ctx, name, {})) as Pod;
}

/** Every container name of the pod in podutil.VisitContainers order: init, regular, ephemeral. */
function containerNames(pod: Pod): string[] {
  const spec = pod.spec;
  return [
    ...(spec?.initContainers ?? []),
    ...(spec?.containers ?? []),
    ...(spec?.ephemeralContainers ?? []),
  ].map((c) => c.name);
}

/**
 * validateContainer (log) and the container checks of streamLocation (exec, attach): the container
 * named, or the pod's only one.
 */
export function validateContainer(container: string, pod: Pod): string {
  const name = pod.metadata?.name ?? '';
  if (container !== '') {
    if (!containerNames(pod).includes(container))
      throw newBadRequest(`container ${container} is not valid for pod ${name}`);
    return container;
  }
  const containers = pod.spec?.containers ?? [];
  if (containers.length === 1) return containers[0]?.name ?? '';
  if (containers.length === 0) throw newBadRequest(`a container name must be specified for pod ${name}`);
  throw newBadRequest(
    `a container name must be specified for pod ${name}, choose one of: [${containerNames(pod).join(' ')}]`,
  );
}

/** Whether the pod's node is one `--simulate` runs. */
async function onSimulatedNode(pod: Pod, nodes: Getter | undefined, signal: AbortSignal): Promise<boolean> {
  const node = pod.spec?.nodeName ?? '';
  return (
    node !== '' &&
    nodes !== undefined &&
    isSimulatedNode(await nodes.get(internalContext({ signal }), node, {}).catch(() => undefined))
  );
}

/** The error for a pod the request would reach through its node's kubelet. */
async function unreachablePod(
  pod: Pod,
  nodes: Getter | undefined,
  signal: AbortSignal,
): Promise<StatusError> {
  const node = pod.spec?.nodeName ?? '';
  if (node === '') return newBadRequest(`pod ${pod.metadata?.name ?? ''} does not have a host assigned`);
  if (await onSimulatedNode(pod, nodes, signal))
    return newServiceUnavailable(
      `node "${node}" is simulated (capstan --simulate): its containers are not processes: there is nothing to exec in, attach to or forward a port to (their logs come from the capstan.dev/logs annotations)`,
    );
  return noKubeletReachable(node);
}

export interface PodConnecters {
  readonly log: NoKubeletConnecter;
  readonly exec: NoKubeletConnecter;
  readonly attach: NoKubeletConnecter;
  readonly portforward: NoKubeletConnecter;
  readonly proxy: NoKubeletConnecter;
}

function streaming(pods: Getter, nodes: Getter | undefined, kind: string): NoKubeletConnecter {
  return new NoKubeletConnecter({
    newObject: () => ({ apiVersion: 'v1', kind }),
    methods: upgradeConnectMethods,
    refuse: async (ctx, name, req) => {
      const pod = await getPod(pods, ctx, name);
      const container = (req.options as { container?: string } | null)?.container;
      validateContainer(container ?? '', pod);
      return unreachablePod(pod, nodes, ctx.signal);
    },
  });
}

/** The pods' Store, which can watch a pod and keeps the server's clock. */
const storeOf = (pods: Getter): Store | undefined => (pods instanceof Store ? pods : undefined);

/**
 * kube's LogREST.Get: the options decoded and validated, the pod and container looked up, then
 * the log of a pod on a simulated node, or what a kubelet that cannot be reached leaves.
 */
function podLog(pods: Getter, nodes: Getter | undefined): NoKubeletConnecterInit['refuse'] {
  return async (ctx, name, req) => {
    const options = decodePodLogOptions(req.query);
    validatePodLogOptions(options, name);
    const pod = await getPod(pods, ctx, name);
    const container = validateContainer(options.container, pod);
    // kube's LogLocation: a pod not yet on a node has no log location, which StreamObject answers 204.
    if ((pod.spec?.nodeName ?? '') === '') return { noContent: true };
    if (!(await onSimulatedNode(pod, nodes, ctx.signal))) return unreachablePod(pod, nodes, ctx.signal);
    return simulatedPodLog(ctx, {
      pod,
      container,
      options,
      pods: storeOf(pods),
      clock: storeOf(pods)?.core.clock ?? systemClock,
    });
  };
}

/** `nodes`: where a pod's node is read, to tell a simulated one. */
export function newPodConnecters(pods: Getter, nodes?: Getter): PodConnecters {
  return {
    // kube serves pods/log as a Getter of kind Pod: GET only.
    log: new NoKubeletConnecter({
      newObject: () => ({ apiVersion: 'v1', kind: 'Pod' }),
      methods: ['GET'],
      getter: true,
      refuse: podLog(pods, nodes),
    }),
    exec: streaming(pods, nodes, 'PodExecOptions'),
    attach: streaming(pods, nodes, 'PodAttachOptions'),
    portforward: new NoKubeletConnecter({
      newObject: () => ({ apiVersion: 'v1', kind: 'PodPortForwardOptions' }),
      methods: upgradeConnectMethods,
      refuse: async (ctx, name) => unreachablePod(await getPod(pods, ctx, name), nodes, ctx.signal),
    }),
    proxy: new NoKubeletConnecter({
      newObject: () => ({ apiVersion: 'v1', kind: 'PodProxyOptions' }),
      methods: proxyConnectMethods,
      subpath: true,
      refuse: async (ctx, id) => {
        const parts = splitSchemeNamePort(id);
        if (parts === undefined) throw newBadRequest(`invalid pod request "${id}"`);
        return unreachablePod(await getPod(pods, ctx, parts.name), nodes, ctx.signal);
      },
    }),
  };
}
