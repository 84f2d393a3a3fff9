// The Restricted level's checks of pod-security-admission's "latest" policy, run on top of the
// Baseline ones (seccompProfile_restricted and capabilities_restricted replace their Baseline twins).
import {
  allContainers,
  containersText,
  inUserNamespace,
  isWindows,
  joinQuote,
  nameOf,
  pluralize,
  sortedSet,
  type CheckResult,
  type PodMetaView,
  type PodSpecView,
  volumeName,
} from './shape.js';

const allowedVolumeSources = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
] as const;

const otherVolumeSources = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'image',
] as const;

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

export function restrictedVolumes(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  const names: string[] = [];
  const types: string[] = [];
  for (const v of spec.volumes ?? []) {
    if (allowedVolumeSources.some((source) => isSet(v[source]))) continue;
    names.push(volumeName(v));
    types.push(otherVolumeSources.find((source) => isSet(v[source])) ?? 'unknown');
  }
  if (names.length === 0) return undefined;
  const list = sortedSet(types);
  return {
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('restricted volume type', 'restricted volume types', list.length)} ${joinQuote(list)}`,
  };
}

export function allowPrivilegeEscalation(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  if (isWindows(spec)) return undefined;
  const names = allContainers(spec)
    .filter((c) => c.securityContext?.allowPrivilegeEscalation !== false)
    .map(nameOf);
  if (names.length === 0) return undefined;
  return {
    reason: 'allowPrivilegeEscalation != false',
    detail: `${containersText(names)} must set securityContext.allowPrivilegeEscalation=false`,
  };
}

export function capabilitiesRestricted(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  if (isWindows(spec)) return undefined;
  const missingDropAll: string[] = [];
  const adding: string[] = [];
  const caps: string[] = [];
  for (const c of allContainers(spec)) {
    const capabilities = c.securityContext?.capabilities;
    if (!(capabilities?.drop ?? []).includes('ALL')) missingDropAll.push(nameOf(c));
    const extra = (capabilities?.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (extra.length === 0) continue;
    adding.push(nameOf(c));
    caps.push(...extra);
  }
  const details: string[] = [];
  if (missingDropAll.length > 0)
    details.push(`${containersText(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length > 0)
    details.push(
      `${containersText(adding)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`,
    );
  return details.length === 0
    ? undefined
    : { reason: 'unrestricted capabilities', detail: details.join('; ') };
}

/**
 * The shape runAsNonRoot and seccompProfile share: the pod and the containers that set a bad value,
 * and the containers that set nothing while the pod sets no good value either.
 */
interface SetterScan<T> {
  readonly read: (sc: NonNullable<PodSpecView['securityContext']>) => T | undefined;
  readonly good: (value: T) => boolean;
}

interface SetterFindings<T> {
  readonly badSetters: string[];
  readonly badValues: T[];
  readonly implicit: string[];
}

function scanSetters<T>(spec: PodSpecView, scan: SetterScan<T>): SetterFindings<T> {
  const badSetters: string[] = [];
  const badValues: T[] = [];
  const podValue = spec.securityContext === undefined ? undefined : scan.read(spec.securityContext);
  let podGood = false;
  if (podValue !== undefined) {
    if (scan.good(podValue)) podGood = true;
    else {
      badSetters.push('pod');
      badValues.push(podValue);
    }
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of allContainers(spec)) {
    const value = c.securityContext === undefined ? undefined : scan.read(c.securityContext);
    if (value === undefined) {
      if (!podGood) implicit.push(nameOf(c));
    } else if (!scan.good(value)) {
      explicit.push(nameOf(c));
      badValues.push(value);
    }
  }
  if (explicit.length > 0) badSetters.push(containersText(explicit));
  return { badSetters, badValues, implicit };
}

export function runAsNonRoot(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  if (inUserNamespace(spec)) return undefined;
  const found = scanSetters(spec, { read: (sc) => sc.runAsNonRoot, good: (v) => v });
  const details: string[] = [];
  if (found.badSetters.length > 0)
    details.push(`${found.badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (found.implicit.length > 0)
    details.push(`pod or ${containersText(found.implicit)} must set securityContext.runAsNonRoot=true`);
  return details.length === 0 ? undefined : { reason: 'runAsNonRoot != true', detail: details.join('; ') };
}

export function runAsUser(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  if (inUserNamespace(spec)) return undefined;
  const setters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) setters.push('pod');
  const names = allContainers(spec)
    .filter((c) => c.securityContext?.runAsUser === 0)
    .map(nameOf);
  if (names.length > 0) setters.push(containersText(names));
  if (setters.length === 0) return undefined;
  return { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` };
}

export function seccompProfileRestricted(_meta: PodMetaView, spec: PodSpecView): CheckResult | undefined {
  if (isWindows(spec)) return undefined;
  const found = scanSetters(spec, {
    read: (sc) => (sc.seccompProfile === undefined ? undefined : (sc.seccompProfile.type ?? '')),
    good: (t) => t === 'RuntimeDefault' || t === 'Localhost',
  });
  const details: string[] = [];
  if (found.badSetters.length > 0)
    details.push(
      `${found.badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(found.badValues))}`,
    );
  if (found.implicit.length > 0)
    details.push(
      `pod or ${containersText(found.implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    );
  return details.length === 0 ? undefined : { reason: 'seccompProfile', detail: details.join('; ') };
}
