// The conditions the namespace deleter keeps on a Terminating namespace
// (pkg/controller/namespace/deletion/status_condition_utils.go): each type is True with what went
// wrong, or False with its "ok" reason and message; all five are always present.
import type { NamespaceStatus } from '../../../api/core/v1/namespace.js';
import type { GroupVersionResource } from '../../../machinery/schema/group-resource.js';
import { nowTimestamp } from '../../../registry/generic/object-meta.js';

export const namespaceConditionTypes = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;
export type NamespaceConditionType = (typeof namespaceConditionTypes)[number];

const okConditions: Record<NamespaceConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: {
    reason: 'ResourcesDiscovered',
    message: 'All resources successfully discovered',
  },
  NamespaceDeletionGroupVersionParsingFailure: {
    reason: 'ParsedGroupVersions',
    message: 'All legacy kube types successfully parsed',
  },
  NamespaceDeletionContentFailure: {
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
};

/** What one pass over the namespace's content found. */
export interface ContentTotals {
  /** Instances left per resource. */
  readonly remaining: ReadonlyMap<GroupVersionResource, number>;
  /** Instances left per finalizer they carry. */
  readonly finalizers: ReadonlyMap<string, number>;
  /** The messages of the resources whose deletion failed. */
  readonly deleteErrors: readonly string[];
}

type Failure = { reason: string; message: string };

/** kube's GroupVersionResource.String() (always `group/version`, so `/v1` for the core group). */
export function gvrString(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}, Resource=${gvr.resource}`;
}

function failures(t: ContentTotals): Partial<Record<NamespaceConditionType, Failure>> {
  const out: Partial<Record<NamespaceConditionType, Failure>> = {};
  const remaining = [...t.remaining]
    .filter(([, n]) => n > 0)
    .map(([gvr, n]) => `${gvr.resource}.${gvr.group} has ${n} resource instances`)
    .sort();
  if (remaining.length > 0)
    out.NamespaceContentRemaining = {
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${remaining.join(', ')}`,
    };
  const byFinalizer = [...t.finalizers]
    .filter(([, n]) => n > 0)
    .map(([f, n]) => `${f} in ${n} resource instances`)
    .sort();
  if (byFinalizer.length > 0)
    out.NamespaceFinalizersRemaining = {
      reason: 'SomeFinalizerRemain',
      message: `Some finalizers are remaining: ${byFinalizer.join(', ')}`,
    };
  if (t.deleteErrors.length > 0)
    out.NamespaceDeletionContentFailure = {
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${t.deleteErrors.length} remaining: ${[...t.deleteErrors].sort().join(', ')}`,
    };
  return out;
}

/**
 * updateConditions: sets every condition type from the totals onto `status`; a condition's
 * lastTransitionTime moves only when its status flips. Returns whether anything changed.
 */
/** `nowMs`: the server's clock, which stamps transitions. */
export function updateConditions(
  status: NamespaceStatus,
  totals: ContentTotals,
  nowMs = Date.now(),
): boolean {
  const failed = failures(totals);
  const conditions = (status.conditions ??= []);
  let changed = false;
  for (const type of namespaceConditionTypes) {
    const f = failed[type];
    const want = f
      ? { type, status: 'True', reason: f.reason, message: f.message }
      : { type, status: 'False', ...okConditions[type] };
    const old = conditions.find((c) => c.type === type);
    if (old === undefined) {
      const { reason, message } = want;
      conditions.push({
        type,
        status: want.status,
        lastTransitionTime: nowTimestamp(nowMs),
        reason,
        message,
      });
      changed = true;
    } else if (old.status !== want.status || old.reason !== want.reason || old.message !== want.message) {
      if (old.status !== want.status) old.lastTransitionTime = nowTimestamp(nowMs);
      Object.assign(old, want);
      changed = true;
    }
  }
  return changed;
}
