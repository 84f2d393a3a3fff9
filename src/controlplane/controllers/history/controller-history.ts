// The ControllerRevisions of a StatefulSet or DaemonSet (pkg/controller/history and the two
// controllers' revision code): each distinct pod template is one revision whose data is the patch
// `kubectl rollout undo` applies (`{"spec":{"template":{…,"$patch":"replace"}}}`). The current
// template's revision is found by equal data or made with the next number; a template seen before
// (a rollback) has its revision renumbered to the newest. Revisions no pod uses and that are neither
// current nor the update revision are deleted, oldest first, down to revisionHistoryLimit.
import type { ControllerRevision } from '../../../api/apps/v1/controller-revision.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { KubeObject } from '../../../api/meta.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Selector } from '../../../machinery/labels/selector.js';
import { canonicalJSON } from '../deployment/template-hash.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { claimObjects } from '../simulation/claim-objects.js';
import { newControllerRef } from '../simulation/controller-ref.js';

export const revisionPath = 'apps/v1/controllerrevisions';
export const controllerRevisionHashLabel = 'controller-revision-hash';

export interface RevisionSyncOptions {
  readonly client: APIClient;
  readonly owner: KubeObject;
  readonly gvk: { apiVersion: string; kind: string };
  readonly selector: Selector;
  /** Every ControllerRevision of the owner's namespace, as the informer holds them. */
  readonly revisions: readonly ControllerRevision[];
  readonly template: PodTemplateSpec | undefined;
  /** The name and hash the current template's revision gets when it is made. */
  readonly name: string;
  readonly hash: string;
}

/**
 * getPatch: the owner's template, to replace the whole template when applied. kubectl compares it
 * byte for byte with the patch it makes from the set (Go's json.Marshal of a map: keys sorted, and
 * the template's metadata with its null creationTimestamp), so it is written in that form.
 */
export function revisionData(template: PodTemplateSpec | undefined): unknown {
  const t = copyOf(template ?? {}) as Record<string, unknown>;
  t['metadata'] = { creationTimestamp: null, ...(t['metadata'] as object | undefined) };
  return sortedKeys({ spec: { template: { ...t, $patch: 'replace' } } });
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortedKeys(v)]));
}

const sameData = (a: unknown, b: unknown): boolean => canonicalJSON(a) === canonicalJSON(b);

const byRevision = (a: ControllerRevision, b: ControllerRevision): number =>
  a.revision - b.revision || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');

/**
 * The owner's revisions once claimed, and the revision of its current template (made or renumbered
 * as needed). Nothing is written for an owner being deleted; its revision may then be undefined.
 */
export async function syncRevisions(
  opts: RevisionSyncOptions,
): Promise<{ owned: ControllerRevision[]; update: ControllerRevision | undefined }> {
  const { client, owner } = opts;
  const owned = (
    await claimObjects({
      client,
      path: revisionPath,
      owner,
      gvk: opts.gvk,
      selector: opts.selector,
      candidates: opts.revisions,
    })
  ).sort(byRevision);
  const data = revisionData(opts.template);
  const equal = owned.filter((r) => sameData(r.data, data));
  const last = owned.at(-1);
  const found = equal.at(-1);
  if (owner.metadata?.deletionTimestamp !== undefined) return { owned, update: found };
  if (found !== undefined && found === last) return { owned, update: found };
  const next = (last?.revision ?? 0) + 1;
  if (found !== undefined) {
    const renumbered = await client.update(revisionPath, { ...copyOf(found), revision: next });
    return { owned: [...owned.filter((r) => r !== found), renumbered], update: renumbered };
  }
  const made = await createRevision(opts, data, next);
  return { owned: [...owned, made], update: made };
}

async function createRevision(
  opts: RevisionSyncOptions,
  data: unknown,
  revision: number,
): Promise<ControllerRevision> {
  const { owner } = opts;
  const revisionObject: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: opts.name,
      namespace: owner.metadata?.namespace ?? '',
      labels: { ...opts.template?.metadata?.labels, [controllerRevisionHashLabel]: opts.hash },
      ...(owner.metadata?.annotations === undefined
        ? {}
        : { annotations: { ...owner.metadata.annotations } }),
      ownerReferences: [newControllerRef(owner, opts.gvk)],
    },
    data,
    revision,
  };
  try {
    return await opts.client.create(revisionPath, owner.metadata?.namespace ?? '', revisionObject);
  } catch (err) {
    // Made by an earlier sync the informer has not shown yet: the key is retried once it has.
    if (reasonForError(err) === 'AlreadyExists')
      throw new Error(`controller revision ${opts.name} exists but is not yet in the cache`);
    throw err;
  }
}

/**
 * truncateHistory / cleanupHistory: deletes the oldest revisions not in `live` (the current and
 * update revisions and those the pods run) while more than `limit` such revisions are left.
 */
export async function truncateHistory(
  client: APIClient,
  owned: readonly ControllerRevision[],
  opts: { live: ReadonlySet<string>; limit: number },
): Promise<void> {
  const history = owned.filter((r) => !opts.live.has(r.metadata?.name ?? '')).sort(byRevision);
  const excess = history.length - Math.max(0, opts.limit);
  for (const revision of history.slice(0, Math.max(0, excess))) {
    try {
      await client.delete(
        revisionPath,
        { namespace: revision.metadata?.namespace ?? '', name: revision.metadata?.name ?? '' },
        {},
      );
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
  }
}
