// A list of custom resources as kube writes it: an UnstructuredList is encoded as a Go map, so its
// members come sorted (`apiVersion`, `items`, `kind`, `metadata`) and so do its metadata's, where
// `continue` is always present (the versioner sets it on every list, empty when there is no more).
import type { KubeList, ListMeta } from '../../api/meta.js';
import { compareGoKeys, startsWithMembers } from './sorted-members.js';
import { setMember } from './set-member.js';

/** An UnstructuredList's metadata: continue, remainingItemCount when set, resourceVersion. */
export function unstructuredListMeta(m: ListMeta): Record<string, unknown> {
  const { continue: next = '', remainingItemCount, resourceVersion = '', selfLink } = m;
  return {
    continue: next,
    ...(remainingItemCount === undefined ? {} : { remainingItemCount }),
    resourceVersion,
    ...(selfLink === undefined || selfLink === '' ? {} : { selfLink }),
  };
}

/** The list with its members and its metadata's sorted; items as they are (stored sorted). */
export function asUnstructuredList(list: KubeList): KubeList {
  const members: Record<string, unknown> = { ...list, metadata: unstructuredListMeta(list.metadata) };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(members).sort(compareGoKeys)) setMember(out, key, members[key]);
  return out as unknown as KubeList;
}

/** Whether a list body is written as a map already (asUnstructuredList's order), not as a struct. */
export function isUnstructuredListOrder(body: object): boolean {
  return startsWithMembers(body, 'apiVersion', 'items');
}
