// A small YAML writer for display (block style, JSON-compatible scalars quoted when needed).
const plain = /^[A-Za-z_./][\w./-]*$/;
// Words YAML 1.1 readers (go-yaml v2, which kubectl used) take for booleans, null or numbers.
const reserved = /^(true|false|null|yes|no|on|off|y|n|~|\.inf|\.nan|\.\d.*)$/i;

function scalar(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return plain.test(v) && !reserved.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

function lines(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v as unknown[]) {
      if (item !== null && typeof item === 'object' && Object.keys(item).length > 0) {
        const sub: string[] = [];
        lines(item, `${indent}  `, sub);
        out.push(`${indent}- ${(sub[0] ?? '').trimStart()}`, ...sub.slice(1));
      } else out.push(`${indent}- ${emptyOr(item)}`);
    }
    return;
  }
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    const key = scalar(k);
    if (val !== null && typeof val === 'object' && Object.keys(val).length > 0) {
      out.push(`${indent}${key}:`);
      lines(val, Array.isArray(val) ? indent : `${indent}  `, out);
    } else out.push(`${indent}${key}: ${emptyOr(val)}`);
  }
}

function emptyOr(v: unknown): string {
  if (Array.isArray(v)) return '[]';
  if (v !== null && typeof v === 'object') return '{}';
  return scalar(v);
}

export function toYaml(v: unknown): string {
  if (v === null || typeof v !== 'object') return `${scalar(v)}\n`;
  const out: string[] = [];
  lines(v, '', out);
  return `${out.join('\n')}\n`;
}

/** The object without metadata.managedFields (shown folded apart) and its entries. */
export function splitManagedFields(obj: Record<string, unknown>): {
  rest: Record<string, unknown>;
  managed: unknown[];
} {
  const meta = (obj['metadata'] ?? {}) as Record<string, unknown>;
  const { managedFields, ...metadata } = meta;
  return { rest: { ...obj, metadata }, managed: Array.isArray(managedFields) ? managedFields : [] };
}
