// A linearizability checker in the manner of Porcupine (Wing & Gong's search with Lowe's memoization):
// the history of each object is checked on its own (P-compositionality), against the nondeterministic
// cell model run as a deterministic model over sets of states. An operation with an unknown outcome
// never returns, so it may be placed anywhere after its invocation, including at the very end where
// the model lets it have had no effect. On failure the offending object's history is shrunk to a
// minimal sub-history that is still not linearizable.
import { describeOps, type Operation } from './history.js';
import { absentCell, anyCell, cellKey, stepCell, type CellState } from './kv-model.js';

interface Entry {
  readonly op: Operation;
  readonly isCall: boolean;
  /** The index of the operation in the partition (its bit). */
  readonly index: number;
  match: Entry | null;
  prev: Entry | null;
  next: Entry | null;
}

export type CheckResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly key: string;
      readonly minimal: readonly Operation[];
      readonly report: string;
    };

/** Search budget per object, so a pathological history fails loudly instead of running for hours. */
const maxSteps = 2_000_000;

function stepSet(states: readonly CellState[], op: Operation): CellState[] {
  const out = new Map<string, CellState>();
  for (const s of states) for (const n of stepCell(s, op.input, op.output)) out.set(cellKey(n), n);
  return [...out.values()];
}

function setKey(states: readonly CellState[]): string {
  return states.map(cellKey).sort().join(',');
}

function buildList(ops: readonly Operation[]): Entry {
  const entries: Entry[] = [];
  ops.forEach((op, index) => {
    const call: Entry = { op, isCall: true, index, match: null, prev: null, next: null };
    const ret: Entry = { op, isCall: false, index, match: null, prev: null, next: null };
    call.match = ret;
    entries.push(call, ret);
  });
  // Calls before returns at equal times: operations that touch in time count as concurrent.
  entries.sort((a, b) => time(a) - time(b) || Number(!a.isCall) - Number(!b.isCall));
  const head: Entry = {
    op: ops[0] as Operation,
    isCall: false,
    index: -1,
    match: null,
    prev: null,
    next: null,
  };
  let last = head;
  for (const e of entries) {
    last.next = e;
    e.prev = last;
    last = e;
  }
  return head;
}

function time(e: Entry): number {
  return e.isCall ? e.op.call : e.op.ret;
}

function lift(call: Entry): void {
  const ret = call.match as Entry;
  (call.prev as Entry).next = call.next;
  if (call.next !== null) call.next.prev = call.prev;
  (ret.prev as Entry).next = ret.next;
  if (ret.next !== null) ret.next.prev = ret.prev;
}

function unlift(call: Entry): void {
  const ret = call.match as Entry;
  (ret.prev as Entry).next = ret;
  if (ret.next !== null) ret.next.prev = ret;
  (call.prev as Entry).next = call;
  if (call.next !== null) call.next.prev = call;
}

/**
 * True when the operations on one object have a linearization the cell model accepts, from a start
 * where the object is absent (fresh names), or from any start when `anyStart` is set.
 */
export function linearizable(ops: readonly Operation[], anyStart = false): boolean {
  if (ops.length === 0) return true;
  const head = buildList(ops);
  const bits = new Uint8Array(ops.length);
  const seen = new Set<string>();
  const stack: { call: Entry; states: CellState[] }[] = [];
  let states: CellState[] = anyStart ? [absentCell, anyCell] : [absentCell];
  let entry = head.next;
  for (let steps = 0; head.next !== null; steps++) {
    if (steps > maxSteps) throw new Error(`linearizability search gave up after ${maxSteps} steps`);
    if (entry === null) throw new Error('linearizability search ran off the end of the history');
    if (entry.isCall) {
      const next = stepSet(states, entry.op);
      if (next.length > 0) {
        bits[entry.index] = 1;
        const key = `${bits.join('')}|${setKey(next)}`;
        if (!seen.has(key)) {
          seen.add(key);
          stack.push({ call: entry, states });
          states = next;
          lift(entry);
          entry = head.next;
          continue;
        }
        bits[entry.index] = 0;
      }
      entry = entry.next;
    } else {
      // An operation returned before any order could place it: undo the last choice.
      const top = stack.pop();
      if (top === undefined) return false;
      states = top.states;
      bits[top.call.index] = 0;
      unlift(top.call);
      entry = top.call.next;
    }
  }
  return true;
}

/**
 * Drops operations one at a time while the rest stays non-linearizable: a 1-minimal witness. When the
 * history fails even from a start that assumes nothing, the witness must too, so that dropping the
 * create before an update does not turn a stale read into a "missing create".
 */
export function shrink(ops: readonly Operation[]): Operation[] {
  let current = [...ops].sort((a, b) => a.call - b.call);
  const anyStart = !linearizable(current, true);
  for (let i = current.length - 1; i >= 0; i--) {
    const without = current.filter((_, j) => j !== i);
    if (!linearizable(without, anyStart)) current = without;
  }
  return current;
}

/** Checks every object's operations; reports the first object that fails, shrunk. */
export function checkLinearizable(ops: readonly Operation[]): CheckResult {
  const byKey = new Map<string, Operation[]>();
  for (const op of ops) {
    const list = byKey.get(op.input.key) ?? [];
    list.push(op);
    byKey.set(op.input.key, list);
  }
  for (const [key, partition] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) {
    if (linearizable(partition)) continue;
    const minimal = shrink(partition);
    const report =
      `history of ${key} (${partition.length} operations) is not linearizable; ` +
      `a minimal sub-history that is not:\n${describeOps(minimal)}`;
    return { ok: false, key, minimal, report };
  }
  return { ok: true };
}
