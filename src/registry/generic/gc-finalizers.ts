// The garbage collector's finalizers a delete adds or removes (shouldOrphanDependents,
// shouldDeleteDependents, deletionFinalizersForGarbageCollection and markAsDeleting in
// k8s.io/apiserver/pkg/registry/generic/registry/store.go).
import type { KubeObject } from '../../api/meta.js';
import type { DeleteOptions } from '../rest/options.js';
import { nowTimestamp } from './object-meta.js';
import type { StoreCore } from './store-core.js';

/** metav1.FinalizerOrphanDependents. */
export const finalizerOrphanDependents = 'orphan';
/** metav1.FinalizerDeleteDependents. */
export const finalizerDeleteDependents = 'foregroundDeletion';

function shouldOrphanDependents<T extends KubeObject>(
  core: StoreCore<T>,
  obj: KubeObject,
  options: DeleteOptions,
): boolean {
  const policy = core.defaultGarbageCollectionPolicy;
  if (policy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  switch (options.propagationPolicy) {
    case 'Orphan':
      return true;
    case 'Background':
    case 'Foreground':
      return false;
    case undefined:
      break;
  }
  for (const f of obj.metadata?.finalizers ?? []) {
    if (f === finalizerOrphanDependents) return true;
    if (f === finalizerDeleteDependents) return false;
  }
  return policy === 'OrphanDependents';
}

function shouldDeleteDependents<T extends KubeObject>(
  core: StoreCore<T>,
  obj: KubeObject,
  options: DeleteOptions,
): boolean {
  if (core.defaultGarbageCollectionPolicy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return false;
  switch (options.propagationPolicy) {
    case 'Foreground':
      return true;
    case 'Background':
    case 'Orphan':
      return false;
    case undefined:
      break;
  }
  for (const f of obj.metadata?.finalizers ?? []) {
    if (f === finalizerDeleteDependents) return true;
    if (f === finalizerOrphanDependents) return false;
  }
  return false;
}

/**
 * The finalizers the object should carry for the garbage collector, and whether that differs from
 * what it has. With garbage collection off nothing is added: no one would ever remove it.
 */
export function deletionFinalizersForGarbageCollection<T extends KubeObject>(
  core: StoreCore<T>,
  obj: KubeObject,
  options: DeleteOptions,
): { needsUpdate: boolean; finalizers: string[] } {
  const current = obj.metadata?.finalizers ?? [];
  if (!core.enableGarbageCollection) return { needsUpdate: false, finalizers: [...current] };
  const next = current.filter((f) => f !== finalizerOrphanDependents && f !== finalizerDeleteDependents);
  if (shouldOrphanDependents(core, obj, options)) next.push(finalizerOrphanDependents);
  if (shouldDeleteDependents(core, obj, options)) next.push(finalizerDeleteDependents);
  const before = new Set(current);
  const after = new Set(next);
  const same = before.size === after.size && [...before].every((f) => after.has(f));
  return same ? { needsUpdate: false, finalizers: [...current] } : { needsUpdate: true, finalizers: next };
}

/** markAsDeleting: deletionTimestamp now (the server's clock, ms; never later than one already set), grace period 0. */
export function markAsDeleting(obj: KubeObject, nowMs: number): void {
  const meta = (obj.metadata ??= {});
  const existing = meta.deletionTimestamp ?? '';
  if (existing === '' && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  const now = nowTimestamp(nowMs);
  if (existing === '' || Date.parse(existing) > Date.parse(now)) meta.deletionTimestamp = now;
  meta.deletionGracePeriodSeconds = 0;
}
