// Resolves unknown outcomes from what the watches and lists saw, as etcd's robustness tests do before
// their linearizability check: every write carries a value no other write carries, so an event or a
// listed object with that value proves the write happened (at that revision, before it was seen);
// when the watches covered every revision from before the write was sent to the end of the run and
// none shows it, it never happened. Without that, each unknown write stays open to the end of the
// history, and a few dozen of them on one object make the search explode. An unknown read had no
// effect and is dropped, and so is a request refused at connect (it never reached the server). Unknown
// deletes stay unknown: the event of a delete names the deleted value, not the delete.
import type { History, Operation } from './history.js';
import { coverage, covered } from './watch-check.js';

interface Sighting {
  readonly rv: number;
  readonly at: number;
}

function sightings(history: History): Map<string, Sighting> {
  const seen = new Map<string, Sighting>();
  const note = (key: string, value: string, s: Sighting): void => {
    const id = `${key}\0${value}`;
    const had = seen.get(id);
    if (had === undefined || s.at < had.at) seen.set(id, s);
  };
  for (const seg of history.segments)
    for (const ev of seg.events)
      if (ev.type === 'ADDED' || ev.type === 'MODIFIED')
        note(ev.key, ev.value, { rv: ev.rv, at: ev.at ?? Infinity });
  for (const list of history.lists)
    for (const item of list.items) note(item.key, item.value, { rv: item.rv, at: list.ret });
  return seen;
}

export function patchUnknowns(history: History, baseRv: number): { ops: Operation[]; open: number } {
  const seen = sightings(history);
  const ranges = coverage(history.segments);
  const events = history.segments
    .flatMap((s) => s.events)
    .sort((a, b) => (a.at ?? Infinity) - (b.at ?? Infinity));
  const lastRv = Math.max(baseRv, ...ranges.map(([, hi]) => hi));
  /** The newest revision some watch had delivered before `t`: the write, if it happened, came later. */
  const revisionAt = (t: number): number =>
    events.reduce((rv, e) => ((e.at ?? Infinity) < t ? Math.max(rv, e.rv) : rv), baseRv);
  let open = 0;
  const ops = history.ops.flatMap((op): Operation[] => {
    if (op.output.type !== 'unknown') return [op];
    if (op.input.kind === 'get' || op.output.error.includes('ECONNREFUSED')) return [];
    if (op.input.kind === 'delete') {
      open++;
      return [op];
    }
    const hit = seen.get(`${op.input.key}\0${op.input.value ?? ''}`);
    if (hit !== undefined)
      return [
        {
          ...op,
          output: { type: 'ok', rv: hit.rv, value: op.input.value ?? '' },
          ret: Math.max(op.call, hit.at),
        },
      ];
    if (covered(ranges, revisionAt(op.call), lastRv)) return [];
    open++;
    return [op];
  });
  return { ops, open };
}
