// kube-apiserver's admission plugins in its order (plugin-names.ts), the ones Capstan has behind
// each name, and the chain of those --enable-admission-plugins / --disable-admission-plugins
// leave on. An enabled name with nothing behind it is logged once, with the reason.
import type { PriorityClass } from '../api/scheduling/v1/priority-class.js';
import type { StorageClass } from '../api/storage/v1/storage-class.js';
import type { IngressClass } from '../api/networking/v1/ingress-class.js';
import type { RuntimeClass } from '../api/node/v1/runtime-class.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import {
  isCreater,
  isGetter,
  isLister,
  isUpdater,
  type Getter,
  type Storage,
} from '../registry/rest/capabilities.js';
import { AdmissionChain, type NamedHandler } from './chain.js';
import type { AdmissionInterface } from './interfaces.js';
import type { AdmissionMetrics } from './metrics/admission-metrics.js';
import {
  defaultOnPlugins,
  isKubeAdmissionPlugin,
  kubeAdmissionPlugins,
  noopPluginReasons,
  type AdmissionPluginName,
} from './plugin-names.js';
import { AlwaysAdmit } from './plugin/admit/admission.js';
import { AlwaysPullImages } from './plugin/alwayspullimages/admission.js';
import { classReaderOf } from './plugin/class-reader.js';
import { AlwaysDeny } from './plugin/deny/admission.js';
import { DenyServiceExternalIPs } from './plugin/denyserviceexternalips/admission.js';
import { LimitRanger } from './plugin/limitranger/admission.js';
import { NamespaceAutoProvision } from './plugin/namespace/autoprovision.js';
import { NamespaceExists } from './plugin/namespace/exists.js';
import { PodNodeSelector } from './plugin/podnodeselector/admission.js';
import { ResourceQuotaAdmission } from './plugin/resourcequota/admission.js';
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
import { newValidatingAdmissionPolicyPlugin } from './plugin/policy/validating/factory.js';
import { validatingAdmissionPolicyPluginName } from './plugin/policy/validating/plugin.js';
import { ServiceAccountAdmission, serviceAccountPluginName } from './plugin/serviceaccount/admission.js';
import { newMutatingWebhookPlugin, newValidatingWebhookPlugin } from './plugin/webhook/plugins.js';
import { mutatingWebhookPluginName } from './plugin/webhook/mutating.js';
import { validatingWebhookPluginName } from './plugin/webhook/validating.js';
import type { Authorizer } from '../registry/rest/authorizer.js';
import { CertificateApproval } from './plugin/certificates/approval.js';
import { CertificateSigning } from './plugin/certificates/signing.js';
import { CertificateSubjectRestriction } from './plugin/certificates/subject-restriction.js';
import { PersistentVolumeClaimResize } from './plugin/pvcresize/admission.js';
import { NodeRestriction } from './plugin/noderestriction/admission.js';
import {
  StorageObjectInUseProtection,
  storageObjectInUseProtectionPluginName,
} from './plugin/storageobjectinuseprotection/admission.js';

/** Every plugin name kube-apiserver 1.33 knows, in its order. */
export const allOrderedPlugins: readonly string[] = kubeAdmissionPlugins;

/** The plugins off unless --enable-admission-plugins names them (kube's DefaultOffAdmissionPlugins). */
export const defaultOffPlugins: ReadonlySet<string> = new Set(
  kubeAdmissionPlugins.filter((name) => !defaultOnPlugins.has(name)),
);

export interface AdmissionPluginSelection {
  /** --enable-admission-plugins. */
  readonly enable?: readonly string[];
  /** --disable-admission-plugins. */
  readonly disable?: readonly string[];
  /** Told once of each enabled plugin that has no effect in Capstan, and why; `named` if --enable named it. */
  readonly log?: (message: string, values: Readonly<Record<string, string>>, named: boolean) => void;
}

/** AdmissionOptions.Validate: every name known, none both enabled and disabled. */
export function validateAdmissionPluginSelection(s: AdmissionPluginSelection): string[] {
  const errs: string[] = [];
  const unknown = (flag: string, name: string): string => `${flag} plugin ${JSON.stringify(name)} is unknown`;
  for (const name of s.enable ?? [])
    if (!isKubeAdmissionPlugin(name)) errs.push(unknown('enable-admission-plugins', name));
  for (const name of s.disable ?? [])
    if (!isKubeAdmissionPlugin(name)) errs.push(unknown('disable-admission-plugins', name));
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

const csrServed = (groups: readonly APIGroupInfo[]): boolean =>
  storageOf(groups, 'certificates.k8s.io', 'certificatesigningrequests') !== undefined;

/** What plugins need besides the served groups. */
export interface AdmissionPluginDeps {
  /** The server's authorizer: the `authorizer` variable of webhook and policy expressions. */
  readonly authorizer?: Authorizer | undefined;
  /** Where the steps, plugins and webhooks are counted (apiserver_admission_*). */
  readonly metrics?: AdmissionMetrics | undefined;
}

type PluginFactory = (
  groups: readonly APIGroupInfo[],
  deps: AdmissionPluginDeps,
) => AdmissionInterface | undefined;

// Each plugin is built only when the storages it reads, or the resources it changes, are served.
const factories: Readonly<Partial<Record<AdmissionPluginName, PluginFactory>>> = {
  AlwaysAdmit: () => new AlwaysAdmit(),
  NamespaceAutoProvision: (groups) => {
    const namespaces = storageOf(groups, '', 'namespaces');
    return namespaces !== undefined && isGetter(namespaces) && isCreater(namespaces)
      ? new NamespaceAutoProvision({ namespaces })
      : undefined;
  },
  NamespaceExists: (groups) => {
    const namespaces = coreGetter(groups, 'namespaces');
    return namespaces === undefined ? undefined : new NamespaceExists({ namespaces });
  },
  LimitRanger: (groups) => {
    const limitRanges = storageOf(groups, '', 'limitranges');
    return limitRanges !== undefined && isLister(limitRanges) ? new LimitRanger({ limitRanges }) : undefined;
  },
  // Reads pods and nodes (and, for token audiences, claims, volumes, CSI drivers and the authorizer).
  NodeRestriction: (groups, deps) => {
    const pods = coreGetter(groups, 'pods');
    const nodes = coreGetter(groups, 'nodes');
    if (pods === undefined || nodes === undefined) return undefined;
    const csiDrivers = storageOf(groups, 'storage.k8s.io', 'csidrivers');
    return new NodeRestriction({
      pods,
      nodes,
      persistentVolumeClaims: coreGetter(groups, 'persistentvolumeclaims'),
      persistentVolumes: coreGetter(groups, 'persistentvolumes'),
      csiDrivers: csiDrivers !== undefined && isGetter(csiDrivers) ? csiDrivers : undefined,
      authorizer: deps.authorizer,
    });
  },
  AlwaysPullImages: (groups) =>
    storageOf(groups, '', 'pods') === undefined ? undefined : new AlwaysPullImages(),
  PodNodeSelector: (groups) => {
    const namespaces = coreGetter(groups, 'namespaces');
    return namespaces === undefined || storageOf(groups, '', 'pods') === undefined
      ? undefined
      : new PodNodeSelector({ namespaces });
  },
  DenyServiceExternalIPs: (groups) =>
    storageOf(groups, '', 'services') === undefined ? undefined : new DenyServiceExternalIPs(),
  ResourceQuota: (groups) => {
    const resourceQuotas = storageOf(groups, '', 'resourcequotas');
    const status = storageOf(groups, '', 'resourcequotas/status');
    if (resourceQuotas === undefined || !isLister(resourceQuotas)) return undefined;
    if (status === undefined || !isUpdater(status)) return undefined;
    return new ResourceQuotaAdmission({ resourceQuotas, status });
  },
  AlwaysDeny: () => new AlwaysDeny(),
  PersistentVolumeClaimResize: (groups) => {
    const storageClasses = classReaderOf<StorageClass>(storageOf(groups, 'storage.k8s.io', 'storageclasses'));
    if (storageClasses === undefined) return undefined;
    if (storageOf(groups, '', 'persistentvolumeclaims') !== undefined)
      return new PersistentVolumeClaimResize(storageClasses);
    storageClasses.close();
    return undefined;
  },
  // The CSR plugins ask the server's authorizer; a chain built without one has nothing to ask.
  CertificateApproval: (groups, deps) =>
    csrServed(groups) && deps.authorizer !== undefined ? new CertificateApproval(deps.authorizer) : undefined,
  CertificateSigning: (groups, deps) =>
    csrServed(groups) && deps.authorizer !== undefined ? new CertificateSigning(deps.authorizer) : undefined,
  CertificateSubjectRestriction: (groups) =>
    csrServed(groups) ? new CertificateSubjectRestriction() : undefined,
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
  [validatingAdmissionPolicyPluginName]: (groups, deps) =>
    newValidatingAdmissionPolicyPlugin(groups, { authorizer: deps.authorizer }),
  [mutatingWebhookPluginName]: (groups, deps) => newMutatingWebhookPlugin(groups, deps),
  [validatingWebhookPluginName]: (groups, deps) => newValidatingWebhookPlugin(groups, deps),
};

/** The chain over the served groups, of the selected plugins. */
export function defaultAdmissionChain(
  groups: readonly APIGroupInfo[],
  selection: AdmissionPluginSelection = {},
  deps: AdmissionPluginDeps = {},
): AdmissionChain {
  const handlers: NamedHandler[] = [];
  for (const name of enabledAdmissionPlugins(selection)) {
    if (!isKubeAdmissionPlugin(name)) continue;
    const factory = factories[name];
    if (factory === undefined) {
      const reason = noopPluginReasons[name];
      const named = selection.enable?.includes(name) ?? false;
      if (reason !== undefined)
        selection.log?.('Admission plugin has no effect in Capstan', { plugin: name, reason }, named);
      continue;
    }
    const plugin = factory(groups, deps);
    if (plugin !== undefined) handlers.push({ name, plugin });
  }
  return new AdmissionChain(handlers, deps.metrics);
}
