// etcd 3.4 has no call that returns the compacted revision; a range at revision r fails with
// "required revision has been compacted" exactly when r is below it. So the compacted revision is
// the lowest readable revision, found by bisection with count-only ranges (tens of cheap calls even
// for billions of revisions), starting from a revision known to be compacted when we have one.

/** True when a read at `rev` fails as compacted. */
export type CompactedProbe = (rev: number) => Promise<boolean>;

/**
 * The smallest readable revision in [max(1, known), current] (0 when revision 1 is readable: never
 * compacted). `known` is a revision the caller knows is compacted-at-or-above (its own compactions).
 */
export async function findCompactRevision(opts: {
  probe: CompactedProbe;
  current: number;
  known: number;
}): Promise<number> {
  const { probe, current } = opts;
  let lo = Math.max(1, opts.known);
  if (!(await probe(lo))) return opts.known > 0 ? opts.known : 0;
  // probe(lo) is compacted; the current revision is always readable.
  let hi = Math.max(current, lo + 1);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (await probe(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}
