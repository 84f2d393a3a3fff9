// The system namespaces kube-apiserver's bootstrap controller keeps (pkg/controlplane/controller/
// systemnamespaces): default, kube-system, kube-public, kube-node-lease, created through the
// registry like any client's request, with an internal context. AlreadyExists means done; other
// failures (storage not ready yet) are retried until the server shuts down.
import type { KubeObject } from '../../api/meta.js';
import type { Creater } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import { labelMetadataName } from '../../registry/core/namespace/strategy.js';
import type { HookContext, PostStartHook } from '../../server/lifecycle/hooks.js';
import { createIfMissing, retryUntilDone } from './retry.js';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

export const systemNamespacesHookName = 'start-system-namespaces-controller';

// As kube's loopback client's body decodes (SetDefaults_Namespace): kube-apiserver owns the label.
const namespaceObject = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { [labelMetadataName]: name } },
});

async function ensureNamespace(namespaces: Creater, name: string, ctx: HookContext): Promise<void> {
  await retryUntilDone(
    ctx,
    { message: 'unable to create a system namespace, retrying', fields: { namespace: name } },
    () =>
      createIfMissing(() =>
        namespaces.create(internalContext({ signal: ctx.signal }), namespaceObject(name), { options: {} }),
      ),
  );
}

export function systemNamespacesHook(
  namespaces: Creater,
  names: readonly string[] = systemNamespaces,
): PostStartHook {
  return async (ctx) => {
    await Promise.all(names.map((name) => ensureNamespace(namespaces, name, ctx)));
  };
}
