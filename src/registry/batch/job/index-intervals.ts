// The text form of a set of completion indexes, "1,3-5,7" (validateIndexesFormat and
// parseIndexInterval in pkg/apis/batch/validation/validation.go): intervals in increasing order,
// each index below completions. The messages are kube's, since they end up in a 422 Status.
import { goQuote } from '../../../machinery/validation/index.js';

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

export type IndexesResult = { ok: true; total: number } | { ok: false; message: string };

/** strconv.Atoi on 64-bit Go: optional sign, decimal digits, within int64. */
function atoi(text: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const n = BigInt(text);
  return n < int64Min || n > int64Max ? undefined : n;
}

export type Interval = { ok: true; first: bigint; last: bigint } | { ok: false; message: string };

function parseIndex(text: string, completions: number): bigint | string {
  const n = atoi(text);
  if (n === undefined) return `cannot convert string to integer for index: ${goQuote(text)}`;
  return n >= BigInt(completions) ? `too large index: ${goQuote(text)}` : n;
}

/** One `x` or `x-y` fragment, each index below completions. */
export function parseIndexInterval(text: string, completions: number): Interval {
  const limits = text.split('-');
  if (limits.length > 2)
    return {
      ok: false,
      message: `the fragment ${goQuote(text)} violates the requirement that an index interval can have at most two parts separated by '-'`,
    };
  const first = parseIndex(limits[0] ?? '', completions);
  if (typeof first === 'string') return { ok: false, message: first };
  if (limits.length === 1) return { ok: true, first, last: first };
  const last = parseIndex(limits[1] ?? '', completions);
  if (typeof last === 'string') return { ok: false, message: last };
  if (first >= last)
    return {
      ok: false,
      message: `non-increasing order, previous: ${String(first)}, current: ${String(last)}`,
    };
  return { ok: true, first, last };
}

/** The number of indexes the text names, or why it is not a valid list below completions. */
export function validateIndexesFormat(text: string, completions: number): IndexesResult {
  if (text === '') return { ok: true, total: 0 };
  let previous: bigint | undefined;
  let total = 0n;
  for (const part of text.split(',')) {
    const interval = parseIndexInterval(part, completions);
    if (!interval.ok) return interval;
    if (previous !== undefined && previous >= interval.first)
      return {
        ok: false,
        message: `non-increasing order, previous: ${String(previous)}, current: ${String(interval.first)}`,
      };
    total += interval.last - interval.first + 1n;
    previous = interval.last;
  }
  return { ok: true, total: Number(total) };
}

/**
 * validateFailedIndexesNotOverlapCompleted: walks both lists in order, skipping fragments that do
 * not parse (their format is reported elsewhere), and names the first index in both.
 */
export function failedIndexesOverlap(
  completed: string,
  failed: string,
  completions: number,
): string | undefined {
  if (completed === '' || failed === '') return undefined;
  const c = completed.split(',').map((part) => parseIndexInterval(part, completions));
  const f = failed.split(',').map((part) => parseIndexInterval(part, completions));
  let ci = 0;
  let fi = 0;
  while (ci < c.length && fi < f.length) {
    const ca = c[ci];
    const fa = f[fi];
    if (ca === undefined || !ca.ok) ci++;
    else if (fa === undefined || !fa.ok) fi++;
    else if (ca.first <= fa.last && fa.first <= ca.last) {
      const at = ca.first > fa.first ? ca.first : fa.first;
      return `failedIndexes and completedIndexes overlap at index: ${String(at)}`;
    } else if (ca.first <= fa.first) ci++;
    else fi++;
  }
  return undefined;
}
