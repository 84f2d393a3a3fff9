// The ReplicaSet a Deployment makes for its current template: named <deployment>-<hash>, with the
// pod-template-hash label added to its selector and template, owned by the Deployment.
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { copyOf } from '../simulation/api-client.js';
import { newControllerRef } from '../simulation/controller-ref.js';
import { podTemplateHashLabel } from './template-hash.js';

export function newReplicaSetFor(
  d: Deployment,
  at: { hash: string; replicas: number; annotations: Record<string, string> },
): ReplicaSet {
  const template = copyOf(d.spec?.template ?? {});
  const tm = (template.metadata ??= {});
  tm.labels = { ...(tm.labels ?? {}), [podTemplateHashLabel]: at.hash };
  const selector = copyOf(d.spec?.selector ?? {});
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [podTemplateHashLabel]: at.hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata?.name ?? ''}-${at.hash}`,
      namespace: d.metadata?.namespace ?? '',
      labels: { ...tm.labels },
      annotations: at.annotations,
      ownerReferences: [newControllerRef(d, { apiVersion: 'apps/v1', kind: 'Deployment' })],
    },
    spec: {
      replicas: at.replicas,
      minReadySeconds: d.spec?.minReadySeconds ?? 0,
      selector,
      template,
    },
  };
}
