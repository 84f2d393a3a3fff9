// kube-scheduler's VolumeBinding plugin, its PreFilter only (pkg/scheduler/framework/plugins/
// volumebinding: podHasPVCs and GetPodVolumeClaims): a pod whose claim is missing, being deleted or
// lost, or not yet bound while its class binds at once, fits no node, whatever the node. Claims of
// WaitForFirstConsumer classes are left alone (this scheduler does not pick a node for them), and so
// are generic ephemeral volumes' claims (no controller here creates them).
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import { annBindCompleted, claimClass } from '../persistentvolume/volume-util.js';

/** The claims and classes the scheduler sees (its informers). */
export interface VolumeLookup {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  storageClass(name: string): StorageClass | undefined;
}

/** isPVCFullyBound: named volume and the binder's bind-completed annotation. */
const fullyBound = (claim: PersistentVolumeClaim): boolean =>
  (claim.spec?.volumeName ?? '') !== '' && claim.metadata?.annotations?.[annBindCompleted] !== undefined;

/**
 * Why the pod's claims keep it from every node, in the plugin's words; undefined when they do not
 * (no claims, or all bound or waiting for a consumer).
 */
export function volumeBindingReason(pod: Pod, lookup: VolumeLookup): string | undefined {
  const namespace = pod.metadata?.namespace ?? '';
  let unboundImmediate = false;
  for (const volume of pod.spec?.volumes ?? []) {
    const name = volume.persistentVolumeClaim?.claimName;
    if (name === undefined) continue;
    const claim = lookup.claim(namespace, name);
    if (claim === undefined) return `persistentvolumeclaim "${name}" not found`;
    if (claim.status?.phase === 'Lost')
      return `persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${claim.spec?.volumeName ?? ''}"`;
    if (claim.metadata?.deletionTimestamp !== undefined)
      return `persistentvolumeclaim "${name}" is being deleted`;
    if (fullyBound(claim)) continue;
    // IsDelayBindingMode: no class, or a class not found, binds at once.
    const className = claimClass(claim);
    const mode = className === '' ? undefined : lookup.storageClass(className)?.volumeBindingMode;
    if (mode !== 'WaitForFirstConsumer') unboundImmediate = true;
  }
  return unboundImmediate ? 'pod has unbound immediate PersistentVolumeClaims' : undefined;
}

/**
 * FitError's message when a PreFilter plugin rejected the pod: its reason, then preemption's verdict
 * on nodes that an unresolvable status covers.
 */
export function preFilterMessage(total: number, reason: string): string {
  const head = `0/${String(total)} nodes are available:`;
  return `${head} ${reason}. preemption: ${head} ${String(total)} Preemption is not helpful for scheduling.`;
}
