// What a container on a simulated node (`--simulate`) printed: the lines of its pod's annotation
// `capstan.dev/logs.<container>`, else of `capstan.dev/logs` (every container), one log line per
// line of the value; without either it printed nothing. Lines added to the value later are what the
// container printed since, which `follow` streams. The runs of a container print the same text.
//
// Time: a simulated container prints everything at once, when its run started (the startedAt of
// its state, or of its last termination for `previous`). That is the time `timestamps` writes and
// `sinceSeconds`/`sinceTime` compare, so they keep either all of a run's lines or none.
import type { Pod } from '../../../api/core/v1/pod.js';

/** The log text of every container of the pod. */
export const logsAnnotation = 'capstan.dev/logs';
/** The log text of one container (`capstan.dev/logs.<container>`), before `capstan.dev/logs`. */
export const containerLogsAnnotationPrefix = `${logsAnnotation}.`;

/** The lines the container has printed so far. */
export function simulatedLogLines(pod: Pod, container: string): string[] {
  const annotations = pod.metadata?.annotations ?? {};
  const text =
    annotations[`${containerLogsAnnotationPrefix}${container}`] ?? annotations[logsAnnotation] ?? '';
  if (text === '') return [];
  const lines = text.split('\n');
  // A value ending in a newline ends its last line; it does not start another.
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** types.RFC3339NanoFixed in UTC, as the kubelet prefixes a line: nine digits of fraction. */
export function kubeletTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, -1)}000000Z`;
}

export interface LogPrinterOptions {
  readonly timestamps: boolean;
  /** Lines from before this (epoch ms) are left out. */
  readonly since: number | undefined;
  /** The most bytes to write in all (limitBytes). */
  readonly limitBytes: number | undefined;
}

/**
 * The kubelet's log writer over simulated lines: each line with its newline, after its timestamp
 * when asked, the whole cut at limitBytes.
 */
export class LogPrinter {
  readonly #opts: LogPrinterOptions;
  #remain: number;

  constructor(opts: LogPrinterOptions) {
    this.#opts = opts;
    this.#remain = opts.limitBytes ?? Number.POSITIVE_INFINITY;
  }

  /** Whether limitBytes has been written: nothing more goes out. */
  get full(): boolean {
    return this.#remain <= 0;
  }

  /** The bytes of these lines, all printed at `at` (epoch ms). */
  print(lines: readonly string[], at: number): Buffer {
    const since = this.#opts.since;
    if (lines.length === 0 || this.full || (since !== undefined && at < since)) return Buffer.alloc(0);
    const prefix = this.#opts.timestamps ? `${kubeletTimestamp(at)} ` : '';
    let bytes = Buffer.from(lines.map((l) => `${prefix}${l}\n`).join(''), 'utf8');
    if (bytes.length > this.#remain) bytes = bytes.subarray(0, this.#remain);
    this.#remain -= bytes.length;
    return bytes;
  }
}
