// Accept header parsing as kube's vendored goautoneg (ParseAccept): clauses sorted by quality,
// then exact types before wildcards; malformed clauses are skipped.

export interface AcceptClause {
  readonly type: string;
  readonly subType: string;
  readonly q: number;
  readonly params: Readonly<Record<string, string>>;
}

const trim = (s: string): string => s.trim();

function parseParams(parts: readonly string[]): { q: number; params: Record<string, string> } {
  let q = 1;
  const params: Record<string, string> = {};
  for (const part of parts) {
    const kv = part.split('=');
    if (kv.length !== 2) continue;
    const key = trim(kv[0] ?? '');
    const value = kv[1] ?? '';
    if (key === 'q') {
      const n = Number.parseFloat(value);
      q = Number.isNaN(n) ? 0 : n;
    } else {
      params[key] = trim(value);
    }
  }
  return { q, params };
}

function parseClause(raw: string): AcceptClause | undefined {
  const [range = '', ...paramParts] = trim(raw).split(';');
  const typeParts = range.split('/');
  const type = trim(typeParts[0] ?? '');
  let subType: string;
  if (typeParts.length === 1) {
    if (type !== '*') return undefined;
    subType = '*';
  } else if (typeParts.length === 2) {
    subType = trim(typeParts[1] ?? '');
  } else {
    return undefined;
  }
  const { q, params } = parseParams(paramParts);
  return { type, subType, q, params };
}

// goautoneg's Less: higher quality first, then concrete types and subtypes before wildcards.
function less(a: AcceptClause, b: AcceptClause): boolean {
  if (a.q > b.q) return true;
  if (a.type !== '*' && b.type === '*') return true;
  return a.subType !== '*' && b.subType === '*';
}

/** The clauses of an Accept header, most preferred first. */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    if (trim(raw) === '') continue;
    const clause = parseClause(raw);
    if (clause !== undefined) clauses.push(clause);
  }
  // Insertion sort, as Go's sort.Sort does for short slices: stable for this comparator.
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j] as AcceptClause, clauses[j - 1] as AcceptClause); j--) {
      const t = clauses[j] as AcceptClause;
      clauses[j] = clauses[j - 1] as AcceptClause;
      clauses[j - 1] = t;
    }
  }
  return clauses;
}
