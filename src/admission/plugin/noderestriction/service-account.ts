// NodeRestriction for service account tokens (admission.go admitServiceAccount and, with
// ServiceAccountNodeAudienceRestriction on as in 1.33, validateNodeServiceAccountAudience): a node
// asks only for tokens bound to a pod of its own, by that pod's uid, and for an audience the pod's
// volumes use (a projected token, or a CSI driver's token request) unless the node is authorized for
// the audience itself.
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { TokenRequest } from '../../../api/authentication/v1/token-request.js';
import type { CSIDriver } from '../../../api/storage/v1/csi-driver.js';
import type { Getter } from '../../../registry/rest/capabilities.js';
import { newAdmissionForbidden } from '../../errors.js';
import type { NodePodRequest } from './pods.js';
import { isNotFound, readForAdmission, readObject, type NodeRestrictionReaders } from './readers.js';

export async function admitServiceAccount(c: NodePodRequest): Promise<void> {
  const { a, nodeName } = c;
  if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
  const tr = a.object as TokenRequest;
  // A body without spec reaches here as it was sent; validation comes later.
  const ref = (tr as Partial<TokenRequest>).spec?.boundObjectRef;
  if (ref == null || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || (ref.name ?? '') === '')
    throw newAdmissionForbidden(a, 'node requested token not bound to a pod');
  if ((ref.uid ?? '') === '')
    throw newAdmissionForbidden(a, 'node requested token with a pod binding without a uid');
  const pod = await readForAdmission(a, () =>
    readObject<Pod>(c.readers.pods, c.ctx, { namespace: a.namespace, name: ref.name ?? '' }),
  );
  if (ref.uid !== pod.metadata?.uid)
    throw newAdmissionForbidden(
      a,
      `the UID in the bound object reference (${ref.uid ?? ''}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  if (pod.spec?.nodeName !== nodeName)
    throw newAdmissionForbidden(a, 'node requested token bound to a pod scheduled on a different node');
  const refused = await audienceRefusal(c, tr, pod);
  if (refused !== undefined) throw newAdmissionForbidden(a, refused);
}

/** utilerrors.NewAggregate's text. */
const aggregate = (errs: readonly string[]): string =>
  errs.length === 1 ? (errs[0] ?? '') : `[${errs.join(', ')}]`;

async function audienceRefusal(c: NodePodRequest, tr: TokenRequest, pod: Pod): Promise<string | undefined> {
  const audiences = (tr as Partial<TokenRequest>).spec?.audiences ?? [];
  if (audiences.length > 1) return 'node may only request 0 or 1 audiences';
  const audience = audiences[0] ?? '';
  const found = await podReferencesAudience(c, pod, audience);
  if (typeof found !== 'boolean') return `error validating audience "${audience}": ${found.error}`;
  if (found) return undefined;
  const user = c.a.userInfo;
  const authorizer = c.readers.authorizer;
  let decision = 'NoOpinion';
  try {
    if (authorizer !== undefined)
      ({ decision } = await authorizer.authorize({
        user,
        verb: 'request-serviceaccounts-token-audience',
        namespace: c.a.namespace,
        apiGroup: '',
        apiVersion: 'v1',
        resource: audience,
        name: c.a.name,
        resourceRequest: true,
      }));
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    return `audience "${audience}" not found in pod spec volume, error authorizing ${user.name} to request tokens for this audience: ${text}`;
  }
  if (decision === 'Allow') return undefined;
  return `audience "${audience}" not found in pod spec volume, ${user.name} is not authorized to request tokens for this audience`;
}

/** A lister's NotFound text (listers name the resource in the singular), else the error's own. */
async function listerRead<T extends PersistentVolume | PersistentVolumeClaim | CSIDriver>(
  c: NodePodRequest,
  what: { readonly getter: Getter | undefined; readonly resource: string },
  ref: { readonly namespace: string; readonly name: string },
): Promise<T> {
  const notFound = new Error(`${what.resource} "${ref.name}" not found`);
  if (what.getter === undefined) throw notFound;
  try {
    return await readObject<T>(what.getter, c.ctx, ref);
  } catch (err) {
    throw isNotFound(err) ? notFound : err;
  }
}

/** getCSIFromPVC: the CSI driver of the claim's volume, '' when it is not a CSI volume. */
async function csiDriverOfClaim(c: NodePodRequest, namespace: string, claimName: string): Promise<string> {
  const r: NodeRestrictionReaders = c.readers;
  const pvc = await listerRead<PersistentVolumeClaim>(
    c,
    { getter: r.persistentVolumeClaims, resource: 'persistentvolumeclaim' },
    { namespace, name: claimName },
  );
  const pv = await listerRead<PersistentVolume>(
    c,
    { getter: r.persistentVolumes, resource: 'persistentvolume' },
    { namespace: '', name: pvc.spec?.volumeName ?? '' },
  );
  return pv.spec?.csi?.driver ?? '';
}

/** podReferencesAudience: a projected token or a CSI driver's token request with this audience. */
async function podReferencesAudience(
  c: NodePodRequest,
  pod: Pod,
  audience: string,
): Promise<boolean | { readonly error: string }> {
  const errs: string[] = [];
  const namespace = pod.metadata?.namespace ?? '';
  for (const v of pod.spec?.volumes ?? []) {
    for (const src of v.projected?.sources ?? [])
      if (src.serviceAccountToken !== undefined && (src.serviceAccountToken.audience ?? '') === audience)
        return true;
    let driver = '';
    try {
      if (v.ephemeral?.volumeClaimTemplate != null)
        driver = await csiDriverOfClaim(c, namespace, `${pod.metadata?.name ?? ''}-${v.name}`);
      else if (v.persistentVolumeClaim !== undefined)
        driver = await csiDriverOfClaim(c, namespace, v.persistentVolumeClaim.claimName);
      else if (v.csi !== undefined) driver = v.csi.driver ?? '';
      if (driver === '') continue;
      const csiDriver = await listerRead<CSIDriver>(
        c,
        { getter: c.readers.csiDrivers, resource: 'csidriver.storage.k8s.io' },
        { namespace: '', name: driver },
      );
      if ((csiDriver.spec.tokenRequests ?? []).some((t) => t.audience === audience)) return true;
    } catch (err) {
      errs.push(err instanceof Error ? err.message : String(err));
    }
  }
  return errs.length === 0 ? false : { error: aggregate(errs) };
}
