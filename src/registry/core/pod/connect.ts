// The pod subresources a kubelet serves (pkg/registry/core/pod/rest/subresources.go and log.go):
// log, exec, attach, portforward and proxy. Each looks the pod up and checks the request as kube's
// LogLocation, ExecLocation, PortForwardLocation and ResourceLocation do; with no kubelet to reach,
// a pod without a node is 400 (its log is empty, as in kube) and one with a node is 503.
import type { Pod } from '../../../api/core/v1/pod.js';
import { newBadRequest, type StatusError } from '../../../machinery/errors/index.js';
import type { Getter } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import {
  NoKubeletConnecter,
  noKubeletReachable,
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

/** validateContainer (log) and the container checks of streamLocation (exec, attach). */
export function validateContainer(container: string, pod: Pod): void {
  const name = pod.metadata?.name ?? '';
  if (container !== '') {
    if (!containerNames(pod).includes(container))
      throw newBadRequest(`container ${container} is not valid for pod ${name}`);
    return;
  }
  const containers = pod.spec?.containers ?? [];
  if (containers.length === 1) return;
  if (containers.length === 0) throw newBadRequest(`a container name must be specified for pod ${name}`);
  throw newBadRequest(
    `a container name must be specified for pod ${name}, choose one of: [${containerNames(pod).join(' ')}]`,
  );
}

/** The error for a pod the request would reach through its node's kubelet. */
export function unreachablePod(pod: Pod): StatusError {
  const node = pod.spec?.nodeName ?? '';
  if (node === '') return newBadRequest(`pod ${pod.metadata?.name ?? ''} does not have a host assigned`);
  return noKubeletReachable(node);
}

export interface PodConnecters {
  readonly log: NoKubeletConnecter;
  readonly exec: NoKubeletConnecter;
  readonly attach: NoKubeletConnecter;
  readonly portforward: NoKubeletConnecter;
  readonly proxy: NoKubeletConnecter;
}

function streaming(pods: Getter, kind: string): NoKubeletConnecter {
  return new NoKubeletConnecter({
    newObject: () => ({ apiVersion: 'v1', kind }),
    methods: upgradeConnectMethods,
    refuse: async (ctx, name, req) => {
      const pod = await getPod(pods, ctx, name);
      validateContainer(req.query.get('container') ?? '', pod);
      return unreachablePod(pod);
    },
  });
}

export function newPodConnecters(pods: Getter): PodConnecters {
  return {
    // kube serves pods/log as a Getter of kind Pod: GET only.
    log: new NoKubeletConnecter({
      newObject: () => ({ apiVersion: 'v1', kind: 'Pod' }),
      methods: ['GET'],
      refuse: async (ctx, name, req) => {
        const pod = await getPod(pods, ctx, name);
        validateContainer(req.query.get('container') ?? '', pod);
        // kube's LogLocation: a pod not yet on a node has no logs, and that is an empty 200.
        if ((pod.spec?.nodeName ?? '') === '') return { contentType: 'text/plain', body: new Uint8Array() };
        return unreachablePod(pod);
      },
    }),
    exec: streaming(pods, 'PodExecOptions'),
    attach: streaming(pods, 'PodAttachOptions'),
    portforward: new NoKubeletConnecter({
      newObject: () => ({ apiVersion: 'v1', kind: 'PodPortForwardOptions' }),
      methods: upgradeConnectMethods,
      refuse: async (ctx, name) => unreachablePod(await getPod(pods, ctx, name)),
    }),
    proxy: new NoKubeletConnecter({
      newObject: () => ({ apiVersion: 'v1', kind: 'PodProxyOptions' }),
      methods: proxyConnectMethods,
      subpath: true,
      refuse: async (ctx, id) => {
        const parts = splitSchemeNamePort(id);
        if (parts === undefined) throw newBadRequest(`invalid pod request "${id}"`);
        return unreachablePod(await getPod(pods, ctx, parts.name));
      },
    }),
  };
}
