// The admission plugins kube-apiserver enables by default that Capstan has, in kube's order
// (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins): for now NamespaceLifecycle alone.
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { isGetter, type Getter } from '../../registry/rest/capabilities.js';
import { AdmissionChain, type NamedHandler } from './chain.js';
import { NamespaceLifecycle, namespaceLifecyclePluginName } from './plugin/namespace/lifecycle.js';

/** The core group's namespaces storage, as a Getter. */
function namespacesGetter(groups: readonly APIGroupInfo[]): Getter | undefined {
  const storage = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1']?.['namespaces'];
  return storage !== undefined && isGetter(storage) ? storage : undefined;
}

/** The chain over the served groups; NamespaceLifecycle only when namespaces are served. */
export function defaultAdmissionChain(groups: readonly APIGroupInfo[]): AdmissionChain {
  const handlers: NamedHandler[] = [];
  const namespaces = namespacesGetter(groups);
  if (namespaces !== undefined)
    handlers.push({ name: namespaceLifecyclePluginName, plugin: new NamespaceLifecycle({ namespaces }) });
  return new AdmissionChain(handlers);
}
