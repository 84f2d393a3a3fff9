// The admission plugins kube-apiserver enables by default that Capstan has, in kube's order
// (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins), and the chain of those
// --enable-admission-plugins / --disable-admission-plugins leave on.
import type { PriorityClass } from '../api/scheduling/v1/priority-class.js';
import type { StorageClass } from '../api/storage/v1/storage-class.js';
import type { IngressClass } from '../api/networking/v1/ingress-class.js';
import type { RuntimeClass } from '../api/node/v1/runtime-class.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import { isGetter, isLister, type Getter, type Storage } from '../registry/rest/capabilities.js';
import { AdmissionChain, type NamedHandler } from './chain.js';
import type { AdmissionInterface } from './interfaces.js';
import { classReaderOf } from './plugin/class-reader.js';
import {
  DefaultIngressClass,
  defaultIngressClassPluginName,
} from './plugin/defaultingressclass/admission.js';
import {
  DefaultStorageClass,
  defaultStorageClassPluginName,
} from './plugin/defaultstorageclass/admission.js';
import {
  DefaultTolerationSeconds,
  defaultTolerationSecondsPluginName,
} from './plugin/defaulttolerationseconds/admission.js';
import { NamespaceLifecycle, namespaceLifecyclePluginName } from './plugin/namespace/lifecycle.js';
import { TaintNodesByCondition, taintNodesByConditionPluginName } from './plugin/nodetaint/admission.js';
import { PodSecurityAdmission, podSecurityPluginName } from './plugin/podsecurity/admission.js';
import { PriorityAdmission, priorityPluginName } from './plugin/priority/admission.js';
import { RuntimeClassAdmission, runtimeClassPluginName } from './plugin/runtimeclass/admission.js';
import { ServiceAccountAdmission, serviceAccountPluginName } from './plugin/serviceaccount/admission.js';
import { newMutatingWebhookPlugin, newValidatingWebhookPlugin } from './plugin/webhook/plugins.js';
import { mutatingWebhookPluginName } from './plugin/webhook/mutating.js';
import { validatingWebhookPluginName } from './plugin/webhook/validating.js';
import {
  StorageObjectInUseProtection,
  storageObjectInUseProtectionPluginName,
} from './plugin/storageobjectinuseprotection/admission.js';

/** Capstan's plugins in kube's order; all are on by default, as in kube-apiserver. */
export const allOrderedPlugins: readonly string[] = [
  namespaceLifecyclePluginName,
  serviceAccountPluginName,
  taintNodesByConditionPluginName,
  podSecurityPluginName,
  priorityPluginName,
  defaultTolerationSecondsPluginName,
  defaultStorageClassPluginName,
  storageObjectInUseProtectionPluginName,
  runtimeClassPluginName,
  defaultIngressClassPluginName,
  mutatingWebhookPluginName,
  validatingWebhookPluginName,
];

/** The plugins off unless --enable-admission-plugins names them (none of Capstan's). */
export const defaultOffPlugins: ReadonlySet<string> = new Set();

export interface AdmissionPluginSelection {
  /** --enable-admission-plugins. */
  readonly enable?: readonly string[];
  /** --disable-admission-plugins. */
  readonly disable?: readonly string[];
}

/** AdmissionOptions.Validate: every name known, none both enabled and disabled. */
/** kube-apiserver 1.33's other admission plugins (AllOrderedPlugins), which Capstan does not have. */
const kubeOnlyPlugins: ReadonlySet<string> = new Set([
  'NamespaceAutoProvision',
  'NamespaceExists',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'NodeRestriction',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodNodeSelector',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DenyServiceExternalIPs',
  'PodTopologyLabels',
  'MutatingAdmissionPolicy',
  'ValidatingAdmissionPolicy',
  'ResourceQuota',
  'AlwaysDeny',
  'AlwaysAdmit',
  'SecurityContextDeny',
]);

export function validateAdmissionPluginSelection(s: AdmissionPluginSelection): string[] {
  const known = new Set(allOrderedPlugins);
  const errs: string[] = [];
  const unknown = (flag: string, name: string): string =>
    kubeOnlyPlugins.has(name)
      ? `${flag} plugin ${JSON.stringify(name)} is a kube-apiserver plugin Capstan does not have (it has ${allOrderedPlugins.join(', ')})`
      : `${flag} plugin ${JSON.stringify(name)} is unknown`;
  for (const name of s.enable ?? [])
    if (!known.has(name)) errs.push(unknown('enable-admission-plugins', name));
  // Turning off a kube plugin Capstan lacks asks for what already holds: kube command lines keep working.
  for (const name of s.disable ?? [])
    if (!known.has(name) && !kubeOnlyPlugins.has(name)) errs.push(unknown('disable-admission-plugins', name));
  const disabled = new Set(s.disable ?? []);
  const both = [...new Set((s.enable ?? []).filter((n) => disabled.has(n)))].sort();
  if (both.length > 0)
    errs.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return errs;
}

/** enabledPluginNames: the default-on plugins plus the enabled, less the disabled, in kube's order. */
export function enabledAdmissionPlugins(s: AdmissionPluginSelection = {}): string[] {
  const off = new Set([...defaultOffPlugins, ...(s.disable ?? [])]);
  for (const name of s.enable ?? []) off.delete(name);
  return allOrderedPlugins.filter((name) => !off.has(name));
}

/** One served resource's storage (v1 of the group). */
function storageOf(groups: readonly APIGroupInfo[], group: string, resource: string): Storage | undefined {
  return groups.find((g) => g.group === group)?.versionedResourcesStorageMap['v1']?.[resource];
}

/** A core group storage (`namespaces`, `serviceaccounts`), as a Getter. */
function coreGetter(groups: readonly APIGroupInfo[], resource: string): Getter | undefined {
  const storage = storageOf(groups, '', resource);
  return storage !== undefined && isGetter(storage) ? storage : undefined;
}

type PluginFactory = (groups: readonly APIGroupInfo[]) => AdmissionInterface | undefined;

// Each plugin is built only when the storages it reads, or the resources it changes, are served.
const factories: Readonly<Record<string, PluginFactory>> = {
  [namespaceLifecyclePluginName]: (groups) => {
    const namespaces = coreGetter(groups, 'namespaces');
    return namespaces === undefined ? undefined : new NamespaceLifecycle({ namespaces });
  },
  [serviceAccountPluginName]: (groups) => {
    const serviceAccounts = coreGetter(groups, 'serviceaccounts');
    return serviceAccounts === undefined ? undefined : new ServiceAccountAdmission({ serviceAccounts });
  },
  [taintNodesByConditionPluginName]: (groups) =>
    storageOf(groups, '', 'nodes') === undefined ? undefined : new TaintNodesByCondition(),
  [podSecurityPluginName]: (groups) => {
    const namespaces = coreGetter(groups, 'namespaces');
    const pods = storageOf(groups, '', 'pods');
    // Pods and their templates are what it checks: without pods served there is nothing to do.
    if (namespaces === undefined || pods === undefined || !isLister(pods)) return undefined;
    return new PodSecurityAdmission({ namespaces, pods });
  },
  [priorityPluginName]: (groups) => {
    const priorityClasses = classReaderOf<PriorityClass>(
      storageOf(groups, 'scheduling.k8s.io', 'priorityclasses'),
    );
    return priorityClasses === undefined ? undefined : new PriorityAdmission({ priorityClasses });
  },
  [defaultTolerationSecondsPluginName]: (groups) =>
    storageOf(groups, '', 'pods') === undefined ? undefined : new DefaultTolerationSeconds(),
  [defaultStorageClassPluginName]: (groups) => {
    const storageClasses = classReaderOf<StorageClass>(storageOf(groups, 'storage.k8s.io', 'storageclasses'));
    return storageClasses === undefined ? undefined : new DefaultStorageClass({ storageClasses });
  },
  [storageObjectInUseProtectionPluginName]: (groups) =>
    storageOf(groups, '', 'persistentvolumeclaims') === undefined &&
    storageOf(groups, '', 'persistentvolumes') === undefined
      ? undefined
      : new StorageObjectInUseProtection(),
  [runtimeClassPluginName]: (groups) => {
    const runtimeClasses = classReaderOf<RuntimeClass>(storageOf(groups, 'node.k8s.io', 'runtimeclasses'));
    return runtimeClasses === undefined ? undefined : new RuntimeClassAdmission({ runtimeClasses });
  },
  [defaultIngressClassPluginName]: (groups) => {
    const ingressClasses = classReaderOf<IngressClass>(
      storageOf(groups, 'networking.k8s.io', 'ingressclasses'),
    );
    return ingressClasses === undefined ? undefined : new DefaultIngressClass({ ingressClasses });
  },
  [mutatingWebhookPluginName]: newMutatingWebhookPlugin,
  [validatingWebhookPluginName]: newValidatingWebhookPlugin,
};

/** The chain over the served groups, of the selected plugins. */
export function defaultAdmissionChain(
  groups: readonly APIGroupInfo[],
  selection: AdmissionPluginSelection = {},
): AdmissionChain {
  const handlers: NamedHandler[] = [];
  for (const name of enabledAdmissionPlugins(selection)) {
    const plugin = factories[name]?.(groups);
    if (plugin !== undefined) handlers.push({ name, plugin });
  }
  return new AdmissionChain(handlers);
}
