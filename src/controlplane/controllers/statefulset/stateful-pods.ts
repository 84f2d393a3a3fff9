// A StatefulSet's pods and claims by ordinal (pkg/controller/statefulset/stateful_set_utils.go):
// pod `<set>-<ordinal>` with its identity (hostname, subdomain, pod-name and pod-index labels, the
// revision label) and one claim `<template>-<set>-<ordinal>` per volumeClaimTemplate, mounted as the
// volume named after the template.
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { computeHash } from '../deployment/template-hash.js';
import { copyOf } from '../simulation/api-client.js';
import { podFromTemplate } from '../simulation/pod-control.js';

export const statefulSetKind = { apiVersion: 'apps/v1', kind: 'StatefulSet' } as const;
export const podNameLabel = 'statefulset.kubernetes.io/pod-name';
export const podIndexLabel = 'apps.kubernetes.io/pod-index';
export const revisionLabel = 'controller-revision-hash';

export const podName = (set: StatefulSet, ordinal: number): string =>
  `${set.metadata?.name ?? ''}-${String(ordinal)}`;

/** The ordinal in a pod's name, when it is `<set>-<n>`. */
export function ordinalOf(set: StatefulSet, pod: Pod): number | undefined {
  const prefix = `${set.metadata?.name ?? ''}-`;
  const name = pod.metadata?.name ?? '';
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
}

/** The revision name of the set's current template (a ControllerRevision's name). */
export const updateRevision = (set: StatefulSet): string =>
  `${set.metadata?.name ?? ''}-${computeHash(set.spec?.template, set.status?.collisionCount ?? 0)}`;

export const claimName = (claim: PersistentVolumeClaim, set: StatefulSet, ordinal: number): string =>
  `${claim.metadata?.name ?? ''}-${podName(set, ordinal)}`;

/** The claims a pod of this ordinal uses, labelled with the set's selector labels. */
export function claimsFor(set: StatefulSet, ordinal: number): PersistentVolumeClaim[] {
  const selectorLabels = set.spec?.selector?.matchLabels ?? {};
  return (set.spec?.volumeClaimTemplates ?? []).map((template) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: claimName(template, set, ordinal),
      namespace: set.metadata?.namespace ?? '',
      labels: { ...template.metadata?.labels, ...selectorLabels },
      ...(template.metadata?.annotations === undefined
        ? {}
        : { annotations: { ...template.metadata.annotations } }),
    },
    spec: copyOf(template.spec ?? {}),
  }));
}

/** newVersionedStatefulSetPod: the template's pod with its identity and claims. */
export function newStatefulPod(set: StatefulSet, ordinal: number): Pod {
  const name = podName(set, ordinal);
  const pod = podFromTemplate(set, { gvk: statefulSetKind, template: set.spec?.template, name });
  const meta = (pod.metadata ??= {});
  meta.labels = {
    ...meta.labels,
    [podNameLabel]: name,
    [podIndexLabel]: String(ordinal),
    [revisionLabel]: updateRevision(set),
  };
  const spec = (pod.spec ??= { containers: [] });
  spec.hostname = name;
  if ((set.spec?.serviceName ?? '') !== '') spec.subdomain = set.spec?.serviceName ?? '';
  const volumes = (spec.volumes ?? []).filter(
    (v) => !(set.spec?.volumeClaimTemplates ?? []).some((t) => t.metadata?.name === v.name),
  );
  for (const template of set.spec?.volumeClaimTemplates ?? [])
    volumes.push({
      name: template.metadata?.name ?? '',
      persistentVolumeClaim: { claimName: claimName(template, set, ordinal) },
    });
  if (volumes.length > 0) spec.volumes = volumes;
  return pod;
}
