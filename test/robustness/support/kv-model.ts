// The sequential specification one object is checked against: a versioned key-value cell. Each
// successful write gets a resourceVersion above every one the cell had; an update (and a delete with
// a precondition) conflicts exactly when its precondition is not the current resourceVersion; a read
// sees the last write. The model is nondeterministic: a write with an unknown outcome leads both to
// the state where it happened (with a resourceVersion not yet known: `rv: null`, bound by the first
// read or precondition that names it) and to the state where it did not.
import type { KvInput, KvOutput } from './history.js';

export interface CellState {
  readonly present: boolean;
  /** The current resourceVersion; null when an unknown-outcome write set it and nothing read it yet. */
  readonly rv: number | null;
  /** The current value; null only in the state "present, nothing known" a shrunk history starts in. */
  readonly value: string | null;
  /** The highest resourceVersion known for this cell: any later write's is above it. */
  readonly floor: number;
}

export const absentCell: CellState = { present: false, rv: null, value: '', floor: 0 };
/** Present with a resourceVersion and value not known: with absentCell, a start that assumes nothing. */
export const anyCell: CellState = { present: true, rv: null, value: null, floor: 0 };

export function cellKey(s: CellState): string {
  return s.present ? `${s.rv ?? '?'}:${s.value ?? '?'}:${s.floor}` : `-:${s.floor}`;
}

/** Does the current resourceVersion equal `rv` (binding an unknown one to it, if it can be)? */
function rvIs(s: CellState, rv: number): boolean {
  return s.rv === null ? rv > s.floor : s.rv === rv;
}

const gone = (floor: number): CellState => ({ present: false, rv: null, value: '', floor });

function stepCreate(s: CellState, input: KvInput, out: KvOutput): CellState[] {
  const value = input.value ?? '';
  switch (out.type) {
    case 'ok':
      return !s.present && out.rv > s.floor && out.value === value
        ? [{ present: true, rv: out.rv, value, floor: out.rv }]
        : [];
    case 'exists':
      return s.present ? [s] : [];
    case 'unknown':
      return s.present ? [s] : [s, { present: true, rv: null, value, floor: s.floor }];
    case 'conflict':
    case 'notFound':
      return [];
  }
}

function stepUpdate(s: CellState, input: KvInput, out: KvOutput): CellState[] {
  const value = input.value ?? '';
  const pre = input.precondition ?? -1;
  switch (out.type) {
    case 'ok':
      return s.present && rvIs(s, pre) && out.rv > Math.max(pre, s.floor) && out.value === value
        ? [{ present: true, rv: out.rv, value, floor: out.rv }]
        : [];
    case 'conflict':
      return s.present && s.rv !== pre ? [s] : [];
    case 'notFound':
      return s.present ? [] : [s];
    case 'unknown': {
      if (!s.present || !rvIs(s, pre)) return [s];
      return [s, { present: true, rv: null, value, floor: Math.max(s.floor, pre) }];
    }
    case 'exists':
      return [];
  }
}

function stepDelete(s: CellState, input: KvInput, out: KvOutput): CellState[] {
  const pre = input.precondition;
  const allowed = s.present && (pre === undefined || rvIs(s, pre));
  switch (out.type) {
    case 'ok': {
      // The deleted object comes back with its last resourceVersion or the deletion's; a Status
      // answer tells neither (rv 0, value '').
      const rvOk = out.rv === 0 || (s.rv === null ? out.rv > s.floor : out.rv >= s.rv);
      const valueOk = out.value === '' || s.value === null || out.value === s.value;
      return allowed && valueOk && rvOk ? [gone(Math.max(s.floor, out.rv))] : [];
    }
    case 'conflict':
      return s.present && pre !== undefined && s.rv !== pre ? [s] : [];
    case 'notFound':
      return s.present ? [] : [s];
    case 'unknown':
      return allowed ? [s, gone(s.floor)] : [s];
    case 'exists':
      return [];
  }
}

function stepGet(s: CellState, out: KvOutput): CellState[] {
  switch (out.type) {
    case 'ok':
      return s.present && (s.value === null || s.value === out.value) && rvIs(s, out.rv)
        ? [{ ...s, rv: out.rv, value: out.value, floor: Math.max(s.floor, out.rv) }]
        : [];
    case 'notFound':
      return s.present ? [] : [s];
    case 'unknown':
      return [s];
    case 'exists':
    case 'conflict':
      return [];
  }
}

/** Every state the cell can be in after `input` answered `out` in state `s` (none: impossible). */
export function stepCell(s: CellState, input: KvInput, out: KvOutput): CellState[] {
  switch (input.kind) {
    case 'create':
      return stepCreate(s, input, out);
    case 'update':
      return stepUpdate(s, input, out);
    case 'delete':
      return stepDelete(s, input, out);
    case 'get':
      return stepGet(s, out);
  }
}
