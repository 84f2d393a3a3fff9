// pods/log's options (core/v1 PodLogOptions): the query decoded as kube's generated url.Values
// conversion does it (first value wins, lenient booleans, strconv's integers, RFC 3339 times), then
// checked as ValidatePodLogOptions does with the PodLogsQuerySplitStreams gate off (kube 1.33's
// default), so a `stream` is refused.
import { newBadRequest, newInvalid } from '../../../machinery/errors/index.js';
import { parseInt64 } from '../../../machinery/labels/int64.js';
import { parseGoTime } from '../../../machinery/structural/go-time.js';
import { FieldError, goQuote, isNegativeErrorMsg, newPath } from '../../../machinery/validation/index.js';

export interface PodLogOptions {
  readonly container: string;
  readonly follow: boolean;
  readonly previous: boolean;
  readonly sinceSeconds?: number;
  /** Epoch ms; kube keeps whole seconds. */
  readonly sinceTime?: number;
  readonly timestamps: boolean;
  readonly tailLines?: number;
  readonly limitBytes?: number;
  readonly stream?: string;
}

/** The first value of a parameter the query names with at least one value. */
const firstValue = (query: URLSearchParams, key: string): string | undefined => query.get(key) ?? undefined;

/** runtime.Convert_Slice_string_To_bool: only "0" and "false" (any case) are false. */
function bool(query: URLSearchParams, key: string): boolean {
  const v = firstValue(query, key);
  return v !== undefined && v !== '0' && v.toLowerCase() !== 'false';
}

/** runtime.Convert_Slice_string_To_Pointer_int64, with strconv.ParseInt's error text. */
function int64(query: URLSearchParams, key: string): number | undefined {
  const v = firstValue(query, key);
  if (v === undefined) return undefined;
  const n = parseInt64(v);
  if (n !== undefined) return Number(n);
  const why = /^[+-]?[0-9]+$/.test(v) ? 'value out of range' : 'invalid syntax';
  throw newBadRequest(`strconv.ParseInt: parsing ${goQuote(v)}: ${why}`);
}

/** metav1.Convert_Slice_string_To_Pointer_v1_Time: '' and "null" are the zero time. */
function time(query: URLSearchParams, key: string): number | undefined {
  const v = firstValue(query, key);
  if (v === undefined) return undefined;
  if (v === '' || v === 'null') return Date.parse('0001-01-01T00:00:00Z');
  const parsed = parseGoTime(v, false);
  if (!parsed.ok) throw newBadRequest(parsed.error);
  return Date.parse(parsed.iso);
}

/** The query as a PodLogOptions; a value that does not convert is a 400 with Go's text. */
export function decodePodLogOptions(query: URLSearchParams): PodLogOptions {
  const opts: {
    -readonly [K in keyof PodLogOptions]: PodLogOptions[K];
  } = {
    container: firstValue(query, 'container') ?? '',
    follow: bool(query, 'follow'),
    previous: bool(query, 'previous'),
    timestamps: false,
  };
  const sinceSeconds = int64(query, 'sinceSeconds');
  if (sinceSeconds !== undefined) opts.sinceSeconds = sinceSeconds;
  const sinceTime = time(query, 'sinceTime');
  if (sinceTime !== undefined) opts.sinceTime = sinceTime;
  opts.timestamps = bool(query, 'timestamps');
  const tailLines = int64(query, 'tailLines');
  if (tailLines !== undefined) opts.tailLines = tailLines;
  const limitBytes = int64(query, 'limitBytes');
  if (limitBytes !== undefined) opts.limitBytes = limitBytes;
  const stream = firstValue(query, 'stream');
  if (stream !== undefined) opts.stream = stream;
  return opts;
}

/** ValidatePodLogOptions: a 422 `PodLogOptions "<pod>" is invalid` listing every problem. */
export function validatePodLogOptions(opts: PodLogOptions, pod: string): void {
  const errs: FieldError[] = [];
  if (opts.tailLines !== undefined && opts.tailLines < 0)
    errs.push(FieldError.invalid(newPath('tailLines'), opts.tailLines, isNegativeErrorMsg));
  if (opts.limitBytes !== undefined && opts.limitBytes < 1)
    errs.push(FieldError.invalid(newPath('limitBytes'), opts.limitBytes, 'must be greater than 0'));
  if (opts.sinceSeconds !== undefined && opts.sinceTime !== undefined)
    errs.push(
      FieldError.forbidden(newPath(''), 'at most one of `sinceTime` or `sinceSeconds` may be specified'),
    );
  else if (opts.sinceSeconds !== undefined && opts.sinceSeconds < 1)
    errs.push(FieldError.invalid(newPath('sinceSeconds'), opts.sinceSeconds, 'must be greater than 0'));
  if (opts.stream !== undefined) errs.push(FieldError.forbidden(newPath('stream'), 'may not be specified'));
  if (errs.length > 0) throw newInvalid({ group: '', kind: 'PodLogOptions' }, pod, errs);
}
