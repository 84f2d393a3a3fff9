// kube-apiserver 1.33's admission plugin names (pkg/kubeapiserver/options/plugins.go
// AllOrderedPlugins and DefaultOffAdmissionPlugins), in its order, and why Capstan leaves some
// of them without effect. Every name is accepted by --enable-admission-plugins and
// --disable-admission-plugins, so kube command lines start Capstan unchanged.

export const kubeAdmissionPlugins = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'PodTopologyLabels',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
] as const;
export type AdmissionPluginName = (typeof kubeAdmissionPlugins)[number];

/** The plugins kube-apiserver 1.33 runs unless --disable-admission-plugins names them. */
export const defaultOnPlugins: ReadonlySet<AdmissionPluginName> = new Set<AdmissionPluginName>([
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'DefaultStorageClass',
  'PersistentVolumeClaimResize',
  'DefaultTolerationSeconds',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'StorageObjectInUseProtection',
  'Priority',
  'TaintNodesByCondition',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'PodSecurity',
  'PodTopologyLabels',
  'MutatingAdmissionPolicy',
  'ValidatingAdmissionPolicy',
]);

export const isKubeAdmissionPlugin = (name: string): name is AdmissionPluginName =>
  (kubeAdmissionPlugins as readonly string[]).includes(name);

/**
 * The plugins an enabled name leaves without effect, and why (logged once at start). A name with
 * a plugin behind it in default-chain.ts is never looked up here.
 */
export const noopPluginReasons: Readonly<Partial<Record<AdmissionPluginName, string>>> = {
  LimitPodHardAntiAffinityTopology: 'not implemented in Capstan',
  ImagePolicyWebhook: 'it needs an external image review backend and its --admission-control-config-file',
  PodTolerationRestriction: 'not implemented in Capstan',
  EventRateLimit: 'it needs its --admission-control-config-file, which Capstan does not read',
  ExtendedResourceToleration: 'not implemented in Capstan',
  OwnerReferencesPermissionEnforcement: 'not implemented in Capstan',
  ClusterTrustBundleAttest: 'it guards ClusterTrustBundles, which Capstan does not serve',
  PodTopologyLabels: 'it copies topology labels from nodes, which Capstan does not run',
  MutatingAdmissionPolicy: 'not implemented in Capstan',
};
