// What the history tab compares: each revision as YAML (without managedFields and resourceVersion,
// which change on every write), and a line diff between two of them in which unchanged runs are
// folded to a few lines of context around each change.
import { diffLines } from 'diff';
import { splitManagedFields, toYaml } from './yaml.js';

export interface DiffLine {
  readonly kind: 'add' | 'del' | 'ctx' | 'fold';
  readonly text: string;
}

/** Unchanged lines kept on each side of a change. */
export const contextLines = 3;

/** A revision's YAML as compared; '' for a deletion (no object). */
export function revisionText(object: Record<string, unknown> | null | undefined): string {
  if (object == null) return '';
  const { rest } = splitManagedFields(object);
  const meta = { ...(rest['metadata'] as Record<string, unknown>) };
  delete meta['resourceVersion'];
  return toYaml({ ...rest, metadata: meta });
}

const linesOf = (value: string): string[] => value.replace(/\n$/, '').split('\n');

const fold = (n: number): DiffLine => ({ kind: 'fold', text: `… ${n} unchanged line${n === 1 ? '' : 's'}` });

/** An unchanged run: the lines next to a change kept, the rest folded into one line. */
function unchanged(lines: readonly string[], around: { before: boolean; after: boolean }): DiffLine[] {
  const head = around.before ? lines.slice(0, contextLines) : [];
  const tail = around.after ? lines.slice(Math.max(head.length, lines.length - contextLines)) : [];
  const hidden = lines.length - head.length - tail.length;
  const ctx = (text: string): DiffLine => ({ kind: 'ctx', text });
  if (hidden <= 1) return lines.map(ctx);
  return [...head.map(ctx), fold(hidden), ...tail.map(ctx)];
}

/** The lines of a diff from `from` to `to`, oldest text first. */
export function diffRevisions(from: string, to: string): DiffLine[] {
  const parts = diffLines(from, to);
  const out: DiffLine[] = [];
  parts.forEach((p, i) => {
    const lines = linesOf(p.value);
    if (p.added) out.push(...lines.map((text): DiffLine => ({ kind: 'add', text })));
    else if (p.removed) out.push(...lines.map((text): DiffLine => ({ kind: 'del', text })));
    else out.push(...unchanged(lines, { before: i > 0, after: i < parts.length - 1 }));
  });
  return out;
}

/** The pair compared when the tab opens: the newest revision against the one before it. */
export function defaultComparison(count: number): { from: number; to: number } {
  return { from: Math.max(0, count - 2), to: count - 1 };
}
