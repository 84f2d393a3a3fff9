// The PV controller's vocabulary (pkg/controller/volume/persistentvolume/util/util.go and
// component-helpers/storage/volume): its annotations, a claim's and a volume's class, and
// FindMatchingVolume, the choice of an existing volume for a claim (findBestMatchForClaim).
import { storageClassOf, type PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import { compareQuantities, parseQuantity, type Quantity } from '../../../machinery/quantity/quantity.js';
import { matchesNodeSelector } from '../node-selector.js';

export const annBindCompleted = 'pv.kubernetes.io/bind-completed';
export const annBoundByController = 'pv.kubernetes.io/bound-by-controller';
export const annDynamicallyProvisioned = 'pv.kubernetes.io/provisioned-by';
export const annStorageProvisioner = 'volume.kubernetes.io/storage-provisioner';
export const annBetaStorageProvisioner = 'volume.beta.kubernetes.io/storage-provisioner';
/** The node the scheduler chose for a claim of a WaitForFirstConsumer class (AnnSelectedNode). */
export const annSelectedNode = 'volume.kubernetes.io/selected-node';

/**
 * Rethrows `err` unless its reason is one of `reasons`: a write whose object is gone (NotFound),
 * already made (AlreadyExists) or changed meanwhile (Conflict) leaves the next sync to do the rest.
 */
export function rethrowUnless(err: unknown, ...reasons: readonly string[]): void {
  if (!reasons.includes(reasonForError(err))) throw err;
}

/** GetPersistentVolumeClaimClass. */
export const claimClass = (claim: PersistentVolumeClaim): string =>
  storageClassOf(claim.metadata, claim.spec?.storageClassName);

/** GetPersistentVolumeClass. */
export const volumeClass = (pv: PersistentVolume): string =>
  storageClassOf(pv.metadata, pv.spec?.storageClassName);

/** IsVolumeBoundToClaim: the claimRef names the claim, and its uid when it has one. */
export function isVolumeBoundToClaim(pv: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (ref === undefined) return false;
  if (ref.name !== claim.metadata?.name || ref.namespace !== claim.metadata?.namespace) return false;
  return (ref.uid ?? '') === '' || ref.uid === claim.metadata?.uid;
}

/**
 * GetBindVolumeToClaim: a copy of the volume bound to the claim (a claimRef with the claim's uid and
 * resourceVersion), marked bound by a controller unless it already named the claim (a user's or a
 * provisioner's pairing); undefined when the volume is already bound to this very claim.
 */
export function volumeBoundToClaim(
  volume: PersistentVolume,
  claim: PersistentVolumeClaim,
): PersistentVolume | undefined {
  const named = isVolumeBoundToClaim(volume, claim);
  if (named && volume.spec?.claimRef?.uid === claim.metadata?.uid) return undefined;
  const pv = structuredClone(volume);
  (pv.spec ??= {}).claimRef = {
    kind: 'PersistentVolumeClaim',
    namespace: claim.metadata?.namespace ?? '',
    name: claim.metadata?.name ?? '',
    uid: claim.metadata?.uid ?? '',
    apiVersion: 'v1',
    resourceVersion: claim.metadata?.resourceVersion ?? '',
  };
  if (!named) {
    const meta = (pv.metadata ??= {});
    meta.annotations = { ...meta.annotations, [annBoundByController]: 'yes' };
  }
  return pv;
}

const storageOf = (list: Record<string, string> | undefined): Quantity | undefined => {
  const parsed = parseQuantity(list?.['storage'] ?? '0');
  return parsed.ok ? parsed.quantity : undefined;
};

/** CheckVolumeModeMismatches: both default to Filesystem. */
const volumeModeMismatch = (pv: PersistentVolume, claim: PersistentVolumeClaim): boolean =>
  (pv.spec?.volumeMode ?? 'Filesystem') !== (claim.spec?.volumeMode ?? 'Filesystem');

/** The claim's modes all among the volume's (the access mode index's allPossibleMatchingAccessModes). */
const modesContained = (pv: PersistentVolume, claim: PersistentVolumeClaim): boolean => {
  const modes = new Set(pv.spec?.accessModes ?? []);
  return (claim.spec?.accessModes ?? []).every((m) => modes.has(m));
};

/**
 * The volume to bind the claim to: one pre-bound to it (claimRef) if big enough, else (unless only
 * pre-bound ones may be taken), of the
 * Available unclaimed volumes of its class and volume mode that its selector matches and whose modes
 * hold its own, those with the fewest access modes, and of them the smallest that holds its request.
 * For a claim bound on a node (the scheduler's path), only volumes whose nodeAffinity selects the
 * node count, a pre-bound one included (then none matches), and `exclude` names volumes already
 * chosen for the pod's other claims.
 */
export function findMatchingVolume(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  opts: { preBoundOnly?: boolean; node?: Node; exclude?: ReadonlySet<string> } = {},
): PersistentVolume | undefined {
  const { node, exclude } = opts;
  const requested = storageOf(claim.spec?.resources?.requests);
  if (requested === undefined) return undefined;
  const fits = (pv: PersistentVolume): Quantity | undefined => {
    const size = storageOf(pv.spec?.capacity);
    return size !== undefined && compareQuantities(size, requested) >= 0 ? size : undefined;
  };
  const selector =
    claim.spec?.selector === undefined ? undefined : labelSelectorAsSelector(claim.spec.selector);
  if (selector?.ok === false) return undefined;
  const candidates: { pv: PersistentVolume; size: Quantity; modes: number }[] = [];
  for (const pv of volumes) {
    if (!modesContained(pv, claim) || volumeModeMismatch(pv, claim)) continue;
    if (pv.metadata?.deletionTimestamp !== undefined) continue;
    // CheckNodeAffinity.
    const reachable = node === undefined || matchesNodeSelector(pv.spec?.nodeAffinity?.required, node);
    if (pv.spec?.claimRef !== undefined) {
      if (isVolumeBoundToClaim(pv, claim) && fits(pv) !== undefined) return reachable ? pv : undefined;
      continue;
    }
    if (!reachable || exclude?.has(pv.metadata?.name ?? '') === true) continue;
    // A claim that waits for its first consumer is matched by the scheduler, not here.
    if (opts.preBoundOnly === true || pv.status?.phase !== 'Available') continue;
    if (selector !== undefined && !selector.selector.matches(pv.metadata?.labels ?? {})) continue;
    if (volumeClass(pv) !== claimClass(claim)) continue;
    const size = fits(pv);
    if (size !== undefined) candidates.push({ pv, size, modes: (pv.spec?.accessModes ?? []).length });
  }
  candidates.sort((a, b) => a.modes - b.modes || compareQuantities(a.size, b.size));
  return candidates[0]?.pv;
}
