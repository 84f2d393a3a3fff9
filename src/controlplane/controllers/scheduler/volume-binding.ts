// kube-scheduler's VolumeBinding plugin (pkg/scheduler/framework/plugins/volumebinding), reduced:
// PreFilter (podHasPVCs, GetPodVolumeClaims): a pod whose claim is missing, being deleted or lost,
// or not yet bound while its class binds at once, fits no node, whatever the node. A claim of a
// WaitForFirstConsumer class waits for the scheduler, which binds it as BindPodVolumes does once it
// has chosen the pod's node: an Available volume there that the claim fits is bound to it (the
// volume's claimRef, which the PV controller completes), and a claim to provision is given the node
// (volume.kubernetes.io/selected-node); the pod is bound once its claims are. A pod whose claims
// name a node goes there. Filter: a node the volume of a bound claim cannot
// be reached from (its nodeAffinity) does not fit (checkBoundClaims), nor one where a waiting claim
// finds no volume it can reach and none can be provisioned (findMatchingVolumes). A generic
// ephemeral volume's claim is the one the ephemeral volume controller makes for the pod
// (ephemeral/).
import type { Node } from '../../../api/core/v1/node.js';
import type { NodeSelector, PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Volume } from '../../../api/core/v1/volume.js';
import type { CSIDriver } from '../../../api/storage/v1/csi-driver.js';
import type { CSIStorageCapacity } from '../../../api/storage/v1/csi-storage-capacity.js';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import { parseQuantity, scaledValue } from '../../../machinery/quantity/quantity.js';
import { matchesTopologyTerms } from '../node-selector.js';
import { withPostFilter } from './filters.js';
import {
  annBindCompleted,
  annSelectedNode,
  claimClass,
  findMatchingVolume,
  isVolumeBoundToClaim,
} from '../persistentvolume/volume-util.js';
import { claimIsForPod, ephemeralClaimName, notOwnerMessage } from '../ephemeral/ephemeral-controller.js';

/** The claims, volumes and classes the scheduler sees (its informers). */
export interface VolumeLookup {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  volume(name: string): PersistentVolume | undefined;
  volumes(): readonly PersistentVolume[];
  storageClass(name: string): StorageClass | undefined;
  /** The CSIDriver of that name, and the CSIStorageCapacity objects (without them, not checked). */
  csiDriver?(name: string): CSIDriver | undefined;
  storageCapacities?(): readonly CSIStorageCapacity[];
}

/** isPVCFullyBound: named volume and the binder's bind-completed annotation. */
const fullyBound = (claim: PersistentVolumeClaim): boolean =>
  (claim.spec?.volumeName ?? '') !== '' && claim.metadata?.annotations?.[annBindCompleted] !== undefined;

/** The claim a volume of the pod names: its own, or its generic ephemeral volume's; none for others. */
export function claimNameOf(pod: Pod, volume: Volume): string | undefined {
  return volume.ephemeral !== undefined
    ? ephemeralClaimName(pod, volume.name)
    : volume.persistentVolumeClaim?.claimName;
}

/**
 * Why the pod's claims keep it from every node, in the plugin's words; undefined when they do not
 * (no claims, or all bound or waiting for a consumer).
 */
export function volumeBindingReason(pod: Pod, lookup: VolumeLookup): string | undefined {
  const namespace = pod.metadata?.namespace ?? '';
  let unboundImmediate = false;
  for (const volume of pod.spec?.volumes ?? []) {
    const ephemeral = volume.ephemeral !== undefined;
    const name = claimNameOf(pod, volume);
    if (name === undefined) continue;
    const claim = lookup.claim(namespace, name);
    if (claim === undefined)
      return ephemeral
        ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"`
        : `persistentvolumeclaim "${name}" not found`;
    if (ephemeral && !claimIsForPod(pod, claim)) return notOwnerMessage(pod, name);
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

/** The pod's claims, those the lookup finds, in the order of its volumes. */
function claimsOf(pod: Pod, lookup: VolumeLookup): PersistentVolumeClaim[] {
  const namespace = pod.metadata?.namespace ?? '';
  const claims: PersistentVolumeClaim[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    const name = claimNameOf(pod, volume);
    const claim = name === undefined ? undefined : lookup.claim(namespace, name);
    if (claim !== undefined) claims.push(claim);
  }
  return claims;
}

/**
 * The required node selectors of the volumes the pod's bound claims are bound to: a node must match
 * each (CheckNodeAffinity). Undefined while one of those volumes is not in the lookup yet (kube's
 * Filter errs then, and the pod is tried again).
 */
export function boundVolumeSelectors(pod: Pod, lookup: VolumeLookup): NodeSelector[] | undefined {
  const selectors: NodeSelector[] = [];
  for (const claim of claimsOf(pod, lookup)) {
    if (!fullyBound(claim)) continue;
    const volume = lookup.volume(claim.spec?.volumeName ?? '');
    if (volume === undefined) return undefined;
    const required = volume.spec?.nodeAffinity?.required;
    if (required !== undefined) selectors.push(required);
  }
  return selectors;
}

/** The pod's unbound claims of WaitForFirstConsumer classes: they wait for the pod's node. */
export function delayedClaims(pod: Pod, lookup: VolumeLookup): PersistentVolumeClaim[] {
  return claimsOf(pod, lookup).filter(
    (c) => !fullyBound(c) && lookup.storageClass(claimClass(c))?.volumeBindingMode === 'WaitForFirstConsumer',
  );
}

/** The node the pod's claims were given (selected-node), if one was. */
export function selectedNode(pod: Pod, lookup: VolumeLookup): string | undefined {
  for (const claim of claimsOf(pod, lookup)) {
    const node = claim.metadata?.annotations?.[annSelectedNode] ?? '';
    if (node !== '') return node;
  }
  return undefined;
}

/** The claim with the node chosen for its pod (a copy to write), or undefined when it has one. */
export function withSelectedNode(
  claim: PersistentVolumeClaim,
  node: string,
): PersistentVolumeClaim | undefined {
  if ((claim.metadata?.annotations?.[annSelectedNode] ?? '') !== '') return undefined;
  const meta = claim.metadata ?? {};
  return { ...claim, metadata: { ...meta, annotations: { ...meta.annotations, [annSelectedNode]: node } } };
}

/** VolumeBinding's Filter reason for a node other than the one the pod's volumes are on. */
export const volumeNodeConflict = 'node(s) had volume node affinity conflict';

/** Its reason for a node where a claim waiting for its first consumer could not be bound. */
export const volumeBindConflict = "node(s) didn't find available persistent volumes to bind";

/** Its reason for a node where the driver reports no room for a claim to provision. */
export const volumeCapacityShort = 'node(s) did not have enough free storage';

/** The provisioner kube's scheduler takes as none (local volumes' classes name it). */
const noProvisioner = 'kubernetes.io/no-provisioner';

/** How the pod's waiting claims are bound on one node: to existing volumes, or by provisioning. */
export interface PodVolumeBindings {
  /** A claim and the Available volume it takes (the scheduler binds the volume to it). */
  readonly static: readonly (readonly [PersistentVolumeClaim, PersistentVolume])[];
  /** Claims whose class's provisioner is to make their volume on the node. */
  readonly provision: readonly PersistentVolumeClaim[];
}

/**
 * How the pod's claims that wait for their first consumer can all be bound on the node
 * (findMatchingVolumes, then checkVolumeProvisions): each to an Available volume whose nodeAffinity
 * selects the node, no two to the same one, or else to a volume its class's provisioner would make
 * there (a class naming `kubernetes.io/no-provisioner` makes none, its allowedTopologies must select
 * the node, and a CSI driver that reports its capacity must report room for the claim where the
 * node is). When one of them cannot be, the plugin's reason instead.
 */
export function podVolumeBindings(
  delayed: readonly PersistentVolumeClaim[],
  node: Node,
  lookup: VolumeLookup,
): PodVolumeBindings | string {
  const chosen = new Set<string>();
  const bound: [PersistentVolumeClaim, PersistentVolume][] = [];
  const provision: PersistentVolumeClaim[] = [];
  const volumes = lookup.volumes();
  for (const claim of delayed) {
    const pv = findMatchingVolume(claim, volumes, { node, exclude: chosen });
    if (pv !== undefined) {
      chosen.add(pv.metadata?.name ?? '');
      bound.push([claim, pv]);
      continue;
    }
    // A claim this scheduler already bound a volume to (for an earlier try of the pod, whose
    // binding the PV controller has yet to complete) goes only where that volume is: kube's
    // scheduler waits for the binding within the try, where this one tries the pod again.
    if (volumes.some((v) => isVolumeBoundToClaim(v, claim))) return volumeBindConflict;
    const sc = lookup.storageClass(claimClass(claim));
    if (
      sc === undefined ||
      sc.provisioner === noProvisioner ||
      !matchesTopologyTerms(sc.allowedTopologies, node)
    )
      return volumeBindConflict;
    if (!hasEnoughCapacity(claim, sc, { node, lookup })) return volumeCapacityShort;
    provision.push(claim);
  }
  return { static: bound, provision };
}

/**
 * hasEnoughCapacity: without a storage request, or for a provisioner that is no CSIDriver with
 * `storageCapacity: true`, yes; else a CSIStorageCapacity of the claim's class whose nodeTopology
 * selects the node must hold the request (in its maximumVolumeSize when it gives one).
 */
function hasEnoughCapacity(
  claim: PersistentVolumeClaim,
  sc: StorageClass,
  where: { readonly node: Node; readonly lookup: VolumeLookup },
): boolean {
  const { node, lookup } = where;
  const request = bytesOf(claim.spec?.resources?.requests?.['storage']);
  if (request === undefined || request === 0n) return true;
  if (lookup.csiDriver?.(sc.provisioner)?.spec.storageCapacity !== true) return true;
  const labels = node.metadata?.labels ?? {};
  return (lookup.storageCapacities?.() ?? []).some((c) => {
    if (c.storageClassName !== sc.metadata?.name) return false;
    const limit = bytesOf(c.maximumVolumeSize ?? c.capacity);
    if (limit === undefined || limit < request) return false;
    // nodeHasAccess: no topology reaches no node.
    if (c.nodeTopology === undefined) return false;
    const selector = labelSelectorAsSelector(c.nodeTopology);
    return selector.ok && selector.selector.matches(labels);
  });
}

/** Quantity.Value: whole bytes, rounded up. */
function bytesOf(text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  const parsed = parseQuantity(text);
  return parsed.ok ? scaledValue(parsed.quantity, 0) : undefined;
}

/** FitError's message when a PreFilter plugin rejected the pod: its reason, then preemption's part. */
export function preFilterMessage(total: number, reason: string, postFilter: string | undefined): string {
  return withPostFilter(`0/${String(total)} nodes are available: ${reason}.`, postFilter);
}
