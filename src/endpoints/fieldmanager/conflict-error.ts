// The 409 an apply answers when it would change fields other managers own
// (managedfields/internal/conflict.go NewConflictError): one cause per field and manager.
import type { StatusCause } from '../../api/meta.js';
import { statusError, type StatusError } from '../../machinery/errors/index.js';
import { parseManagerIdentifier } from '../../machinery/patch/managed-fields.js';
import type { Conflict } from '../../machinery/patch/merge/updater.js';
import { pathString } from '../../machinery/patch/fieldpath/path-element.js';
import { goQuote } from '../../machinery/validation/go-format.js';

/** printManager: `"kubectl"`, or `"m" with subresource "status" using v1` for an updater. */
export function printManager(id: string): string {
  const info = parseManagerIdentifier(id);
  let out = goQuote(info.manager ?? '');
  if ((info.subresource ?? '') !== '') out = `${out} with subresource ${goQuote(info.subresource ?? '')}`;
  if (info.operation === 'Update') out = `${out} using ${info.apiVersion ?? ''}`;
  return out;
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  const first = conflicts[0];
  if (conflicts.length === 1 && first !== undefined) {
    return `Apply failed with 1 conflict: conflict with ${printManager(first.manager)}: ${pathString(first.path)}`;
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts)
    byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), pathString(c.path)]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager) ?? []) lines.push(`- ${p}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

export function newApplyConflict(conflicts: readonly Conflict[]): StatusError {
  const sorted = [...conflicts].sort((a, b) => (a.manager < b.manager ? -1 : a.manager > b.manager ? 1 : 0));
  const causes: StatusCause[] = sorted.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  return statusError({ reason: 'Conflict', message: conflictMessage(sorted), details: { causes } });
}
