// APIObjectVersioner (k8s.io/apiserver/pkg/storage/api_object_versioner.go): resourceVersion is
// the decimal form of the store revision.
import type { KubeList, KubeObject } from '../api/meta.js';
import type { Revision, Versioner } from './interfaces.js';
import { StorageError } from './errors.js';

const maxRevision = Number.MAX_SAFE_INTEGER;

/** Thrown for a resourceVersion that is not a non-negative integer; its message is kube's field error. */
export function invalidResourceVersionError(rv: string): StorageError {
  const reason = /^\d+$/.test(rv) ? 'value out of range' : 'invalid syntax';
  return new StorageError({
    code: 'InvalidError',
    key: '',
    message: `resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${reason}`,
  });
}

export function parseResourceVersion(rv: string): Revision {
  if (rv === '') return 0;
  if (!/^\d+$/.test(rv)) throw invalidResourceVersionError(rv);
  const n = Number(rv);
  if (n > maxRevision) throw invalidResourceVersionError(rv);
  return n;
}

export const apiObjectVersioner: Versioner = {
  objectResourceVersion(obj: KubeObject): Revision {
    return parseResourceVersion(obj.metadata?.resourceVersion ?? '');
  },
  updateObject(obj: KubeObject, rev: Revision): void {
    const meta = (obj.metadata ??= {});
    if (rev === 0) delete meta.resourceVersion;
    else meta.resourceVersion = String(rev);
  },
  updateList(list: KubeList, meta: { rev: Revision; continue?: string; remainingItemCount?: number }): void {
    list.metadata.resourceVersion = String(meta.rev);
    if (meta.continue !== undefined && meta.continue !== '') list.metadata.continue = meta.continue;
    else delete list.metadata.continue;
    if (meta.remainingItemCount !== undefined) list.metadata.remainingItemCount = meta.remainingItemCount;
    else delete list.metadata.remainingItemCount;
  },
  prepareObjectForStorage(obj: KubeObject): void {
    if (obj.metadata === undefined) return;
    delete obj.metadata.resourceVersion;
    delete obj.metadata.selfLink;
  },
  parseResourceVersion,
};
