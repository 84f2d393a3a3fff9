// What reconciling a bootstrap RoleBinding or ClusterRoleBinding with the stored one does
// (component-helpers/auth/rbac/reconciliation reconcile_rolebindings.go
// computeReconciledRoleBinding, union mode): a different roleRef, which cannot be updated, means
// delete and create again; otherwise missing labels, annotations and subjects are added.
import type { RoleBinding, Subject } from '../../../api/rbac/v1/rbac.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import { isProtected, mergeMetadata, type ReconcileOperation } from './reconcile-role.js';

export interface BindingReconcileResult {
  readonly operation: ReconcileOperation;
  readonly protected: boolean;
  readonly binding: RoleBinding;
  readonly missingSubjects: readonly Subject[];
}

const sameSubject = (a: Subject, b: Subject): boolean =>
  a.kind === b.kind &&
  (a.apiGroup ?? '') === (b.apiGroup ?? '') &&
  (a.name ?? '') === (b.name ?? '') &&
  (a.namespace ?? '') === (b.namespace ?? '');

export function reconcileBinding(
  stored: RoleBinding | undefined,
  expected: RoleBinding,
): BindingReconcileResult {
  if (stored === undefined)
    return {
      operation: 'create',
      protected: false,
      binding: expected,
      missingSubjects: expected.subjects ?? [],
    };
  const prot = isProtected(stored);
  const ref = stored.roleRef;
  const want = expected.roleRef;
  if (ref.apiGroup !== want.apiGroup || ref.kind !== want.kind || ref.name !== want.name)
    return { operation: 'recreate', protected: prot, binding: expected, missingSubjects: [] };
  const binding: RoleBinding = deepCopyJSON(stored);
  let changed = mergeMetadata(binding, stored, expected);
  const have = stored.subjects ?? [];
  const missingSubjects: Subject[] = [];
  for (const s of expected.subjects ?? [])
    if (!have.some((h) => sameSubject(h, s)) && !missingSubjects.some((m) => sameSubject(m, s)))
      missingSubjects.push(s);
  if (missingSubjects.length > 0) {
    binding.subjects = [...have, ...missingSubjects];
    changed = true;
  }
  return { operation: changed ? 'update' : 'none', protected: prot, binding, missingSubjects };
}
