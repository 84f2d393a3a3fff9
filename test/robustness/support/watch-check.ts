// Kube's watch and list guarantees, checked against a recorded history: each watch delivers events in
// strictly increasing resourceVersion after the one it started from, never repeats one, and skips
// none of the changes between its start and the last revision it delivered; bookmarks are never ahead
// of delivered events; all watches agree on what happened at each revision, and that agrees with the
// writes clients saw acknowledged; acknowledged writes are ordered by resourceVersion in real time;
// a list at revision R equals the replay of every change up to R and is no older than any write
// acknowledged before it was sent.
import type { History, ListItem, ListOp, Operation, WatchEvent, WatchSegment } from './history.js';

/** One change at one revision, as the watches and the acknowledged writes tell it. */
interface Change {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly key: string;
  readonly value: string;
}

export interface WatchReport {
  readonly problems: string[];
  /** Revisions some watch or acknowledged write names. */
  readonly changes: number;
  readonly listsChecked: number;
  readonly listsUncovered: number;
  readonly eventsDelivered: number;
}

const describe = (rv: number, c: Change): string => `${c.type} ${c.key}=${c.value} at ${rv}`;

function checkSegmentOrder(seg: WatchSegment, problems: string[]): void {
  let last = seg.startRv;
  let bookmark = 0;
  for (const ev of seg.events) {
    const where = `watch ${seg.watcher} from ${seg.startRv}`;
    if (ev.type === 'BOOKMARK') {
      if (ev.rv < last) problems.push(`${where}: bookmark ${ev.rv} behind delivered event ${last}`);
      bookmark = Math.max(bookmark, ev.rv);
      continue;
    }
    if (ev.rv <= last)
      problems.push(`${where}: ${ev.type} ${ev.key} at ${ev.rv} after ${last} (out of order or repeated)`);
    if (ev.rv <= bookmark) problems.push(`${where}: ${ev.type} at ${ev.rv} after a bookmark at ${bookmark}`);
    last = Math.max(last, ev.rv);
  }
}

function addChange(log: Map<number, Change>, rv: number, c: Change, problems: string[]): void {
  const had = log.get(rv);
  if (had === undefined) log.set(rv, c);
  else if (had.type !== c.type || had.key !== c.key || had.value !== c.value)
    problems.push(`two accounts of revision ${rv}: ${describe(rv, had)} and ${describe(rv, c)}`);
}

/** The changes at each revision, from every watch and every acknowledged create and update. */
function changeLog(history: History, problems: string[]): Map<number, Change> {
  const log = new Map<number, Change>();
  for (const seg of history.segments)
    for (const ev of seg.events)
      if (ev.type !== 'BOOKMARK')
        addChange(log, ev.rv, { type: ev.type, key: ev.key, value: ev.value }, problems);
  for (const op of history.ops) {
    if (op.output.type !== 'ok') continue;
    if (op.input.kind === 'create')
      addChange(log, op.output.rv, { type: 'ADDED', key: op.input.key, value: op.output.value }, problems);
    if (op.input.kind === 'update')
      addChange(log, op.output.rv, { type: 'MODIFIED', key: op.input.key, value: op.output.value }, problems);
  }
  return log;
}

/** The last revision a segment delivered (an event or a bookmark). */
function segmentEnd(seg: WatchSegment): number {
  return seg.events.reduce((m, e) => Math.max(m, e.rv), seg.startRv);
}

function checkGaps(seg: WatchSegment, log: Map<number, Change>, problems: string[]): void {
  const end = segmentEnd(seg);
  const got = new Set(seg.events.filter((e) => e.type !== 'BOOKMARK').map((e) => e.rv));
  for (const [rv, c] of log)
    if (rv > seg.startRv && rv <= end && !got.has(rv))
      problems.push(`watch ${seg.watcher} from ${seg.startRv} to ${end} skipped ${describe(rv, c)}`);
}

function checkWriteOrder(ops: readonly Operation[], problems: string[]): void {
  const writes = ops.filter(
    (o) => o.output.type === 'ok' && o.input.kind !== 'get' && o.input.kind !== 'delete',
  );
  const byReturn = [...writes].sort((a, b) => a.ret - b.ret);
  const byCall = [...writes].sort((a, b) => a.call - b.call);
  let i = 0;
  let maxRv = 0;
  let maxOp: Operation | undefined;
  for (const b of byCall) {
    for (; i < byReturn.length && (byReturn[i] as Operation).ret < b.call; i++) {
      const a = byReturn[i] as Operation;
      const rv = a.output.type === 'ok' ? a.output.rv : 0;
      if (rv > maxRv) [maxRv, maxOp] = [rv, a];
    }
    const rv = b.output.type === 'ok' ? b.output.rv : 0;
    if (rv <= maxRv)
      problems.push(
        `write #${b.id} got rv ${rv} though #${maxOp?.id ?? '?'} had returned rv ${maxRv} before it began`,
      );
  }
}

/** The revision ranges (lo, hi] the watches covered, merged into disjoint ranges. */
export function coverage(segments: readonly WatchSegment[]): [number, number][] {
  const ranges = segments
    .map((s) => [s.startRv, segmentEnd(s)] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [lo, hi] of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

/** Did some watch deliver every change in (from, to]? */
export function covered(ranges: readonly [number, number][], from: number, to: number): boolean {
  return from >= to || ranges.some(([lo, hi]) => lo <= from && hi >= to);
}

/** How many values of `sorted` (ascending) are at or below `rv`. */
function countAtOrBelow(sorted: readonly number[], rv: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) <= rv) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The state at `to`: the anchor's, with the log's changes in (anchor.rv, to] applied in order. */
function replay(
  log: Map<number, Change>,
  revisions: readonly number[],
  anchor: Anchor,
  to: number,
): Map<string, string> {
  const state = new Map(anchor.state);
  for (let i = countAtOrBelow(revisions, anchor.rv); i < revisions.length; i++) {
    const rv = revisions[i] as number;
    if (rv > to) break;
    const c = log.get(rv) as Change;
    if (c.type === 'DELETED') state.delete(c.key);
    else state.set(c.key, c.value);
  }
  return state;
}

/** A revision whose whole state is known: the empty start, or a list. */
interface Anchor {
  readonly rv: number;
  readonly state: ReadonlyMap<string, string>;
  readonly list?: ListOp;
}

const show = (items: Iterable<[string, string]>): string =>
  [...items]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

/**
 * Each list against the replay of the watches from the newest other known state before it, and
 * against the writes acknowledged before it was sent. Linear in the history but for the sorts and
 * the replayed windows: a 30-minute soak records tens of thousands of lists.
 */
function checkLists(history: History, log: Map<number, Change>, baseRv: number, problems: string[]) {
  const ranges = coverage(history.segments);
  const revisions = [...log.keys()].sort((a, b) => a - b);
  // Acknowledged writes by response time, with the newest revision acknowledged up to each.
  const acked = history.ops
    .filter((o) => o.output.type === 'ok' && o.input.kind !== 'get' && o.input.kind !== 'delete')
    .sort((a, b) => a.ret - b.ret);
  const newestUpTo: (typeof acked)[number][] = [];
  for (const o of acked) {
    const prev = newestUpTo[newestUpTo.length - 1];
    const rvOf = (x: (typeof acked)[number]): number => (x.output.type === 'ok' ? x.output.rv : 0);
    newestUpTo.push(prev !== undefined && rvOf(prev) >= rvOf(o) ? prev : o);
  }
  const rets = acked.map((o) => o.ret);
  const anchors: Anchor[] = [
    { rv: baseRv, state: new Map() },
    ...history.lists.map((list) => ({
      rv: list.rv,
      state: new Map(list.items.map((i) => [i.key, i.value])),
      list,
    })),
  ].sort((a, b) => a.rv - b.rv);
  const anchorRvs = anchors.map((a) => a.rv);
  let checked = 0;
  let uncovered = 0;
  for (const list of history.lists) {
    // The write with the newest revision among those acknowledged before the list was sent.
    const before = countBelow(rets, list.call) - 1;
    const newer = before < 0 ? undefined : newestUpTo[before];
    if (newer !== undefined && newer.output.type === 'ok' && newer.output.rv > list.rv)
      problems.push(
        `list at ${list.rv} (sent at ${list.call.toFixed(1)}) is older than write #${newer.id}, acknowledged before it`,
      );
    for (const item of list.items)
      if (item.rv > list.rv) problems.push(`list at ${list.rv} holds ${item.key} at a later rv ${item.rv}`);
    // The newest other known state at or before this list. If the watches do not cover every change
    // from it to the list, they cover none from an older one either.
    let i = countAtOrBelow(anchorRvs, list.rv) - 1;
    while (i >= 0 && anchors[i]?.list === list) i--;
    const anchor = i < 0 ? undefined : anchors[i];
    if (anchor === undefined || list.rv < baseRv || !covered(ranges, anchor.rv, list.rv)) {
      uncovered++;
      continue;
    }
    checked++;
    const want = replay(log, revisions, anchor, list.rv);
    const got = new Map(list.items.map((item: ListItem) => [item.key, item.value]));
    if (show(want) !== show(got))
      problems.push(
        `list at ${list.rv}: got [${show(got)}], the state at ${anchor.rv} and the watches give [${show(want)}]`,
      );
  }
  return { checked, uncovered };
}

/** How many values of `sorted` (ascending) are below `t`. */
function countBelow(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Runs every watch and list check; `baseRv` is a revision at which no recorded object existed. */
export function checkWatchesAndLists(history: History, baseRv: number): WatchReport {
  const problems: string[] = [];
  for (const seg of history.segments) checkSegmentOrder(seg, problems);
  const log = changeLog(history, problems);
  for (const seg of history.segments) checkGaps(seg, log, problems);
  checkWriteOrder(history.ops, problems);
  const { checked, uncovered } = checkLists(history, log, baseRv, problems);
  const eventsDelivered = history.segments.reduce(
    (n, s) => n + s.events.filter((e: WatchEvent) => e.type !== 'BOOKMARK').length,
    0,
  );
  return { problems, changes: log.size, listsChecked: checked, listsUncovered: uncovered, eventsDelivered };
}
