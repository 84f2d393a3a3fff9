// Value parsers with the error texts of Go's strconv and time packages, as pflag reports them.
import { parseGoDuration } from '../machinery/time/go-duration.js';

export function parseIntFlag(raw: string): number {
  if (!/^[+-]?\d+$/.test(raw))
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n))
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: value out of range`);
  return n;
}

export function parseFloatFlag(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw) || !Number.isFinite(n))
    throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(raw)}: invalid syntax`);
  return n;
}

const trueWords = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const falseWords = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export function parseBoolFlag(raw: string): boolean {
  if (trueWords.has(raw)) return true;
  if (falseWords.has(raw)) return false;
  throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
}

export function parseDurationFlag(raw: string): number {
  return parseGoDuration(raw);
}

/** A string-slice value: comma-separated; repeating the flag appends. */
export function parseListFlag(raw: string): string[] {
  return raw === '' ? [] : raw.split(',').map((s) => s.trim());
}
