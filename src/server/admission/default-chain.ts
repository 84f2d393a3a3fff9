// The admission plugins kube-apiserver enables by default that Capstan has, in kube's order
// (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins): NamespaceLifecycle, ServiceAccount.
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { isGetter, type Getter } from '../../registry/rest/capabilities.js';
import { AdmissionChain, type NamedHandler } from './chain.js';
import { NamespaceLifecycle, namespaceLifecyclePluginName } from './plugin/namespace/lifecycle.js';
import { ServiceAccountAdmission, serviceAccountPluginName } from './plugin/serviceaccount/admission.js';

/** A core group storage (`namespaces`, `serviceaccounts`), as a Getter. */
function coreGetter(groups: readonly APIGroupInfo[], resource: string): Getter | undefined {
  const storage = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1']?.[resource];
  return storage !== undefined && isGetter(storage) ? storage : undefined;
}

/** The chain over the served groups; each plugin only when the storage it reads is served. */
export function defaultAdmissionChain(groups: readonly APIGroupInfo[]): AdmissionChain {
  const handlers: NamedHandler[] = [];
  const namespaces = coreGetter(groups, 'namespaces');
  if (namespaces !== undefined)
    handlers.push({ name: namespaceLifecyclePluginName, plugin: new NamespaceLifecycle({ namespaces }) });
  const serviceAccounts = coreGetter(groups, 'serviceaccounts');
  if (serviceAccounts !== undefined)
    handlers.push({
      name: serviceAccountPluginName,
      plugin: new ServiceAccountAdmission({ serviceAccounts }),
    });
  return new AdmissionChain(handlers);
}
