// Connect subresources (pods/exec, pods/log, nodes/proxy, services/proxy…) of a server that has no
// kubelets to reach: each looks the object up as kube's connecters do, so a missing object is 404
// and a bad request 400 with kube's texts, then answers 503 naming what cannot be reached.
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest, newServiceUnavailable, StatusError } from '../../machinery/errors/index.js';
import type { ConnectAnswer, Connecter, ConnectRequest, Getter, Storage } from './capabilities.js';
import type { RequestContext } from './context.js';

/** kube's ConnectMethods for the streaming subresources and for proxies. */
export const upgradeConnectMethods = ['GET', 'POST'] as const;
export const proxyConnectMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface NoKubeletConnecterInit {
  /** The options kind the subresource is listed with in discovery (PodExecOptions…). */
  readonly newObject: () => KubeObject;
  readonly methods: readonly string[];
  /** Whether `…/<subresource>/<path>` is served too (proxies). */
  readonly subpath?: boolean;
  /** kube serves it as a getter with options (pods/log), not as a connecter: no CONNECT admission. */
  readonly getter?: boolean;
  /** Looks the target up and returns the error to answer with (404 and 400 are thrown instead). */
  /** The Status the request is refused with, or (rarely) what it answers: kube's empty log of a pod without a node. */
  readonly refuse: (
    ctx: RequestContext,
    name: string,
    req: ConnectRequest,
  ) => Promise<StatusError | ConnectAnswer>;
}

/** The 503 for a target on a node without a reachable kubelet. */
export function noKubeletReachable(node: string): StatusError {
  return newServiceUnavailable(`no kubelet is reachable for node "${node}"`);
}

export class NoKubeletConnecter implements Storage, Connecter {
  readonly #init: NoKubeletConnecterInit;

  constructor(init: NoKubeletConnecterInit) {
    this.#init = init;
  }
  newObject(): KubeObject {
    return this.#init.newObject();
  }
  destroy(): void {
    // Owns no storage.
  }
  connectMethods(): readonly string[] {
    return this.#init.methods;
  }
  connectSubpath(): boolean {
    return this.#init.subpath ?? false;
  }
  admitsConnect(): boolean {
    return this.#init.getter !== true;
  }
  async connect(ctx: RequestContext, name: string, req: ConnectRequest): Promise<ConnectAnswer> {
    const answer = await this.#init.refuse(ctx, name, req);
    if (answer instanceof StatusError) throw answer;
    return answer;
  }
}

const validSchemes = new Set(['', 'http', 'https']);

/** utilnet.SplitSchemeNamePort: `name`, `name:port` or `scheme:name:port`; undefined when invalid. */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let out: { scheme: string; name: string; port: string };
  if (parts.length === 1) out = { scheme: '', name: parts[0] ?? '', port: '' };
  else if (parts.length === 2) out = { scheme: '', name: parts[0] ?? '', port: parts[1] ?? '' };
  else if (parts.length === 3) out = { scheme: parts[0] ?? '', name: parts[1] ?? '', port: parts[2] ?? '' };
  else return undefined;
  return out.name !== '' && validSchemes.has(out.scheme) ? out : undefined;
}

/** nodes/proxy: the node must exist; its kubelet is never reachable. */
export function newNodeProxyREST(nodes: Getter): NoKubeletConnecter {
  return new NoKubeletConnecter({
    newObject: () => ({ apiVersion: 'v1', kind: 'NodeProxyOptions' }),
    methods: proxyConnectMethods,
    subpath: true,
    refuse: async (ctx, id) => {
      const parts = splitSchemeNamePort(id);
      if (parts === undefined) throw newBadRequest(`invalid node request "${id}"`);
      await nodes.get(ctx, parts.name, {});
      return noKubeletReachable(parts.name);
    },
  });
}

/** services/proxy: the service must exist; Capstan has no network path to its pods. */
export function newServiceProxyREST(services: Getter): NoKubeletConnecter {
  return new NoKubeletConnecter({
    newObject: () => ({ apiVersion: 'v1', kind: 'ServiceProxyOptions' }),
    methods: proxyConnectMethods,
    subpath: true,
    refuse: async (ctx, id) => {
      const parts = splitSchemeNamePort(id);
      if (parts === undefined) throw newBadRequest(`invalid service request "${id}"`);
      await services.get(ctx, parts.name, {});
      return newServiceUnavailable(
        `no endpoints available for service "${parts.name}": no kubelet or pod network is reachable from this server`,
      );
    },
  });
}
