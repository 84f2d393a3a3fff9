// storage.Preconditions.Check (k8s.io/apiserver/pkg/storage/interfaces.go) with kube's messages.
import type { KubeObject, Preconditions } from '../api/meta.js';
import { invalidObj } from './errors.js';

export function checkPreconditions(
  key: string,
  pre: Preconditions | undefined,
  obj: KubeObject | null,
): void {
  if (pre === undefined) return;
  const uid = obj?.metadata?.uid ?? '';
  const rv = obj?.metadata?.resourceVersion ?? '';
  if (pre.uid !== undefined && pre.uid !== uid) {
    throw invalidObj(key, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv) {
    throw invalidObj(
      key,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${rv}`,
    );
  }
}
