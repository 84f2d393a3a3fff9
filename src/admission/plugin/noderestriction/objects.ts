// NodeRestriction for the node's other objects (admission.go admitPVCStatus, admitLease,
// admitCSINode): PVC status updates that change nothing but capacity, conditions and the
// expansion fields; its own Lease in kube-node-lease; its own CSINode.
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { goQuote } from '../../../machinery/validation/index.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { semanticEqual } from '../../../machinery/json/semantic-equal.js';

/** api.NamespaceNodeLease. */
const nodeLeaseNamespace = 'kube-node-lease';

/** The claim less what a node may change (RecoverVolumeExpansionFailure on, as in 1.33). */
function comparable(pvc: PersistentVolumeClaim): PersistentVolumeClaim {
  const status = { ...pvc.status };
  delete status.capacity;
  delete status.conditions;
  delete status.allocatedResourceStatuses;
  delete status.allocatedResources;
  const metadata = { ...pvc.metadata };
  delete metadata.resourceVersion;
  delete metadata.managedFields;
  return { ...pvc, metadata, status };
}

/** The top-level fields that differ, standing in for kube's cmp.Diff. */
function differingFields(a: PersistentVolumeClaim, b: PersistentVolumeClaim): string {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  const out: string[] = [];
  for (const part of ['metadata', 'spec', 'status']) {
    const pa = (ra[part] ?? {}) as Record<string, unknown>;
    const pb = (rb[part] ?? {}) as Record<string, unknown>;
    for (const k of new Set([...Object.keys(pa), ...Object.keys(pb)]))
      if (!semanticEqual(pa[k], pb[k])) out.push(`${part}.${k}`);
  }
  return out.join(', ');
}

export function admitPVCStatus(a: Attributes, nodeName: string): void {
  if (a.operation !== 'UPDATE')
    throw newAdmissionForbidden(a, `unexpected operation ${goQuote(a.operation)}`);
  const oldPVC = comparable(a.oldObject as PersistentVolumeClaim);
  const newPVC = comparable(a.object as PersistentVolumeClaim);
  if (semanticEqual(oldPVC, newPVC)) return;
  throw newAdmissionForbidden(
    a,
    `node ${goQuote(nodeName)} is not allowed to update fields other than status.quantity and status.conditions: ${differingFields(oldPVC, newPVC)}`,
  );
}

/** admitLease; on create the name is the object's. */
export function admitLease(a: Attributes, nodeName: string): void {
  if (a.namespace !== nodeLeaseNamespace)
    throw newAdmissionForbidden(a, `can only access leases in the "${nodeLeaseNamespace}" system namespace`);
  const name = a.operation === 'CREATE' ? (a.object?.metadata?.name ?? '') : a.name;
  if (name !== nodeName)
    throw newAdmissionForbidden(a, 'can only access node lease with the same name as the requesting node');
}

export function admitCSINode(a: Attributes, nodeName: string): void {
  const name = a.operation === 'CREATE' ? (a.object?.metadata?.name ?? '') : a.name;
  if (name !== nodeName)
    throw newAdmissionForbidden(a, 'can only access CSINode with the same name as the requesting node');
}
