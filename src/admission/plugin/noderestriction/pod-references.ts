// The objects a pod's spec names (pkg/api/v1/pod/util.go VisitPodSecretNames and
// VisitPodConfigmapNames over all containers, ephemeral.VolumeClaimName, resourceclaim.Name): what
// the Node authorizer lets a pod's node read, and what NodeRestriction forbids in mirror pods.
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod } from '../../../api/core/v1/pod.js';

/** Every container of the spec: init, regular, then ephemeral (kube's AllContainers). */
function allContainers(pod: Pod): readonly Container[] {
  const spec = pod.spec;
  if (spec === undefined) return [];
  return [...(spec.initContainers ?? []), ...spec.containers, ...(spec.ephemeralContainers ?? [])];
}

const nonEmpty = (names: readonly (string | undefined)[]): string[] =>
  names.filter((n): n is string => n !== undefined && n !== '');

/** The secrets the pod names: pull secrets, env and envFrom, and the volume sources that take one. */
export function podSecretNames(pod: Pod): string[] {
  const names: (string | undefined)[] = [];
  for (const ref of pod.spec?.imagePullSecrets ?? []) names.push(ref.name);
  for (const c of allContainers(pod)) {
    for (const e of c.envFrom ?? []) if (e.secretRef !== undefined) names.push(e.secretRef.name);
    for (const e of c.env ?? []) names.push(e.valueFrom?.secretKeyRef?.name);
  }
  for (const v of pod.spec?.volumes ?? []) {
    // One source per volume, checked in kube's order.
    if (v.azureFile !== undefined) names.push(v.azureFile.secretName);
    else if (v.cephfs !== undefined) names.push(v.cephfs.secretRef?.name);
    else if (v.cinder !== undefined) names.push(v.cinder.secretRef?.name);
    else if (v.flexVolume !== undefined) names.push(v.flexVolume.secretRef?.name);
    else if (v.projected !== undefined) for (const s of v.projected.sources ?? []) names.push(s.secret?.name);
    else if (v.rbd !== undefined) names.push(v.rbd.secretRef?.name);
    else if (v.secret !== undefined) names.push(v.secret.secretName ?? '');
    else if (v.scaleIO !== undefined) names.push(v.scaleIO.secretRef?.name);
    else if (v.iscsi !== undefined) names.push(v.iscsi.secretRef?.name);
    else if (v.storageos !== undefined) names.push(v.storageos.secretRef?.name);
    else if (v.csi !== undefined) names.push(v.csi.nodePublishSecretRef?.name);
  }
  return nonEmpty(names);
}

/** The config maps the pod names: env, envFrom, configMap volumes and projections. */
export function podConfigMapNames(pod: Pod): string[] {
  const names: (string | undefined)[] = [];
  for (const c of allContainers(pod)) {
    for (const e of c.envFrom ?? []) if (e.configMapRef !== undefined) names.push(e.configMapRef.name);
    for (const e of c.env ?? []) names.push(e.valueFrom?.configMapKeyRef?.name);
  }
  for (const v of pod.spec?.volumes ?? []) {
    if (v.projected !== undefined) for (const s of v.projected.sources ?? []) names.push(s.configMap?.name);
    else if (v.configMap !== undefined) names.push(v.configMap.name);
  }
  return nonEmpty(names);
}

/** The claims of persistentVolumeClaim volumes and the generated claims of ephemeral ones. */
export function podVolumeClaimNames(pod: Pod): string[] {
  const podName = pod.metadata?.name ?? '';
  const names: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim !== undefined) names.push(v.persistentVolumeClaim.claimName);
    else if (v.ephemeral !== undefined) names.push(`${podName}-${v.name}`);
  }
  return names.filter((n) => n !== '');
}

/**
 * The ResourceClaims the pod uses: those it names, and those generated from its templates once
 * status.resourceClaimStatuses says which (a template without a status entry has none yet).
 */
export function podResourceClaimNames(pod: Pod): string[] {
  const names: string[] = [];
  for (const claim of pod.spec?.resourceClaims ?? []) {
    if (claim.resourceClaimName !== undefined) names.push(claim.resourceClaimName);
    else if (claim.resourceClaimTemplateName !== undefined) {
      const status = (pod.status?.resourceClaimStatuses ?? []).find((s) => s.name === claim.name);
      if (status?.resourceClaimName !== undefined) names.push(status.resourceClaimName);
    }
  }
  return names;
}
