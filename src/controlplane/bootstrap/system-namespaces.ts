// The system namespaces kube-apiserver's bootstrap controller keeps (pkg/controlplane/controller/
// systemnamespaces): default, kube-system, kube-public, kube-node-lease, created through the
// registry like any client's request, with an internal context. AlreadyExists means done; other
// failures (storage not ready yet) are retried until the server shuts down.
import { errorText } from '../../server/logging/error-text.js';
import type { KubeObject } from '../../api/meta.js';
import { reasonForError } from '../../machinery/errors/index.js';
import type { Creater } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import type { HookContext, PostStartHook } from '../../server/lifecycle/hooks.js';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

export const systemNamespacesHookName = 'start-system-namespaces-controller';

const namespaceObject = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
});

async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

async function ensureNamespace(namespaces: Creater, name: string, ctx: HookContext): Promise<void> {
  for (let delay = 50; !ctx.signal.aborted; delay = Math.min(delay * 2, 2000)) {
    try {
      await namespaces.create(internalContext({ signal: ctx.signal }), namespaceObject(name), {
        options: {},
      });
      return;
    } catch (err) {
      if (reasonForError(err) === 'AlreadyExists') return;
      ctx.logger.v(2, 'unable to create a system namespace, retrying', {
        namespace: name,
        err: errorText(err),
      });
      await sleep(delay, ctx.signal);
    }
  }
}

export function systemNamespacesHook(
  namespaces: Creater,
  names: readonly string[] = systemNamespaces,
): PostStartHook {
  return async (ctx) => {
    await Promise.all(names.map((name) => ensureNamespace(namespaces, name, ctx)));
  };
}
