// NodeRestriction for pods (admission.go admitPod, admitPodCreate, admitPodStatus, admitPodEviction):
// a node creates only mirror pods bound to itself, owned by its Node and naming no other API
// objects; it deletes, updates the status of and evicts only pods bound to itself.
import { mirrorPodAnnotation, type Pod } from '../../../api/core/v1/pod.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Eviction } from '../../../api/policy/v1/eviction.js';
import { goQuote } from '../../../machinery/validation/index.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { podConfigMapNames, podSecretNames } from './pod-references.js';
import { isNotFound, readForAdmission, readObject, type NodeRestrictionReaders } from './readers.js';
import { labelsEqual } from '../../../machinery/json/semantic-equal.js';

/** api.MirrorPodAnnotationKey. */

export interface NodePodRequest {
  readonly ctx: RequestContext;
  readonly a: Attributes;
  readonly nodeName: string;
  readonly readers: NodeRestrictionReaders;
}

const forbid = (a: Attributes, message: string): Error => newAdmissionForbidden(a, message);

/** admitPod: create (mirror pods) and delete (pods bound to the node). */
export async function admitPod(c: NodePodRequest): Promise<void> {
  const { a, nodeName } = c;
  if (a.operation === 'CREATE') return admitPodCreate(c);
  if (a.operation === 'DELETE') {
    const existing = await readForAdmission(a, () =>
      readObject<Pod>(c.readers.pods, c.ctx, { namespace: a.namespace, name: a.name }),
    );
    if (existing.spec?.nodeName !== nodeName)
      throw forbid(a, `node ${goQuote(nodeName)} can only delete pods with spec.nodeName set to itself`);
    return;
  }
  throw forbid(
    a,
    `unexpected operation ${goQuote(a.operation)}, node ${goQuote(nodeName)} can only create and delete mirror pods`,
  );
}

async function admitPodCreate(c: NodePodRequest): Promise<void> {
  const { a, nodeName } = c;
  const q = goQuote(nodeName);
  const pod = a.object as Pod;
  if (!Object.hasOwn(pod.metadata?.annotations ?? {}, mirrorPodAnnotation))
    throw forbid(
      a,
      `pod does not have ${goQuote(mirrorPodAnnotation)} annotation, node ${q} can only create mirror pods`,
    );
  if (pod.spec?.nodeName !== nodeName)
    throw forbid(a, `node ${q} can only create pods with spec.nodeName set to itself`);
  const owners = pod.metadata?.ownerReferences ?? [];
  if (owners.length > 1)
    throw forbid(a, `node ${q} can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (owner === undefined)
    throw forbid(a, `node ${q} can only create pods with an owner reference set to itself`);
  if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== nodeName)
    throw forbid(a, `node ${q} can only create pods with an owner reference set to itself`);
  if (owner.controller !== true)
    throw forbid(a, `node ${q} can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion === true)
    throw forbid(a, `node ${q} must not set blockOwnerDeletion on an owner reference`);
  let node: Node;
  try {
    node = await readObject<Node>(c.readers.nodes, c.ctx, { namespace: '', name: nodeName });
  } catch (err) {
    if (isNotFound(err)) throw err;
    const text = err instanceof Error ? err.message : String(err);
    throw forbid(a, `error looking up node ${nodeName} to verify uid: ${text}`);
  }
  const uid = node.metadata?.uid ?? '';
  if (owner.uid !== uid) throw forbid(a, `node ${nodeName} UID mismatch: expected ${uid} got ${owner.uid}`);
  checkMirrorPodReferences(a, pod, q);
}

/** A mirror pod may name no other API object: it would grant its node access to it. */
function checkMirrorPodReferences(a: Attributes, pod: Pod, q: string): void {
  if ((pod.spec?.serviceAccountName ?? '') !== '')
    throw forbid(a, `node ${q} can not create pods that reference a service account`);
  if (podSecretNames(pod).length > 0) throw forbid(a, `node ${q} can not create pods that reference secrets`);
  if (podConfigMapNames(pod).length > 0)
    throw forbid(a, `node ${q} can not create pods that reference configmaps`);
  const volumes = pod.spec?.volumes ?? [];
  if (volumes.some((v) => (v.projected?.sources ?? []).some((s) => s.clusterTrustBundle !== undefined)))
    throw forbid(a, `node ${q} can not create pods that reference clustertrustbundles`);
  if (volumes.some((v) => v.persistentVolumeClaim !== undefined))
    throw forbid(a, `node ${q} can not create pods that reference persistentvolumeclaims`);
  if ((pod.spec?.resourceClaims ?? []).length > 0)
    throw forbid(a, `node ${q} can not create pods that reference resourceclaims`);
}

/** resourceClaimStatusesEqual: the same entries, in order, naming the same claims. */
function claimStatusesEqual(x: Pod, y: Pod): boolean {
  const a = x.status?.resourceClaimStatuses ?? [];
  const b = y.status?.resourceClaimStatuses ?? [];
  return (
    a.length === b.length &&
    a.every((s, i) => s.name === b[i]?.name && s.resourceClaimName === b[i]?.resourceClaimName)
  );
}

/** admitPodStatus: updates of the status of pods bound to the node, labels and claim statuses kept. */
export function admitPodStatus(c: NodePodRequest): void {
  const { a, nodeName } = c;
  if (a.operation !== 'UPDATE') throw forbid(a, `unexpected operation ${goQuote(a.operation)}`);
  const oldPod = a.oldObject as Pod;
  const newPod = a.object as Pod;
  const q = goQuote(nodeName);
  if (oldPod.spec?.nodeName !== nodeName)
    throw forbid(a, `node ${q} can only update pod status for pods with spec.nodeName set to itself`);
  if (!labelsEqual(oldPod.metadata?.labels, newPod.metadata?.labels))
    throw forbid(a, `node ${q} cannot update labels through pod status`);
  if (!claimStatusesEqual(oldPod, newPod)) throw forbid(a, `node ${q} cannot update resource claim statues`);
}

/** admitPodEviction: evictions of pods bound to the node (the pod named by the URL, else the body). */
export async function admitPodEviction(c: NodePodRequest): Promise<void> {
  const { a, nodeName } = c;
  if (a.operation !== 'CREATE') throw forbid(a, `unexpected operation ${a.operation}`);
  const eviction = a.object as Eviction;
  const podName = a.name !== '' ? a.name : (eviction.metadata?.name ?? '');
  if (podName === '') throw forbid(a, 'could not determine pod from request data');
  const existing = await readForAdmission(a, () =>
    readObject<Pod>(c.readers.pods, c.ctx, { namespace: a.namespace, name: podName }),
  );
  if (existing.spec?.nodeName !== nodeName)
    throw forbid(a, `node ${nodeName} can only evict pods with spec.nodeName set to itself`);
}
