// A small structured logger in the two formats kube components offer (`--logging-format`): klog's
// text lines and JSON. Every server owns one; nothing is global, so many servers share a process.

import { errorText } from './error-text.js';

export const logFormats = ['text', 'json'] as const;
export type LogFormat = (typeof logFormats)[number];

export type LogValues = Readonly<Record<string, string | number | boolean | undefined>>;

/** Where lines go: process.stderr by default; tests pass an array-backed sink. */
export interface LogSink {
  write(line: string): unknown;
  readonly writableNeedDrain?: boolean;
}

type Severity = 'I' | 'W' | 'E';

export interface LoggerOptions {
  readonly format?: LogFormat;
  /** klog's -v: messages logged at a level above it are dropped. */
  readonly verbosity?: number;
  readonly sink?: LogSink;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function klogHeader(sev: Severity, now: Date): string {
  const date = `${pad(now.getMonth() + 1, 2)}${pad(now.getDate(), 2)}`;
  const time = `${pad(now.getHours(), 2)}:${pad(now.getMinutes(), 2)}:${pad(now.getSeconds(), 2)}`;
  return `${sev}${date} ${time}.${pad(now.getMilliseconds() * 1000, 6)} ${String(process.pid).padStart(7)}]`;
}

function textValue(v: string | number | boolean): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

export class Logger {
  readonly #format: LogFormat;
  readonly #verbosity: number;
  readonly #sink: LogSink;
  #blockedSince = 0;

  constructor(opts: LoggerOptions = {}) {
    this.#format = opts.format ?? 'text';
    this.#verbosity = opts.verbosity ?? 0;
    this.#sink = opts.sink ?? process.stderr;
  }

  get verbosity(): number {
    return this.#verbosity;
  }

  /** klog.V(level).Enabled(). */
  enabled(level: number): boolean {
    return level <= this.#verbosity;
  }

  info(msg: string, values: LogValues = {}): void {
    this.#emit({ sev: 'I', level: 0, msg, values });
  }

  /** klog.V(level).InfoS: dropped unless -v is at least `level`. */
  v(level: number, msg: string, values: LogValues = {}): void {
    if (this.enabled(level)) this.#emit({ sev: 'I', level, msg, values });
  }

  warn(msg: string, values: LogValues = {}): void {
    this.#emit({ sev: 'W', level: 0, msg, values });
  }

  error(msg: string, err?: unknown, values: LogValues = {}): void {
    const text = err === undefined ? undefined : errorText(err, { stack: true });
    this.#emit({ sev: 'E', level: 0, msg, values: text === undefined ? values : { ...values, err: text } });
  }

  /** Milliseconds the sink has been backed up (0 when it drains): the `log` health check reads it. */
  blockedForMs(now = Date.now()): number {
    if (this.#sink.writableNeedDrain !== true) {
      this.#blockedSince = 0;
      return 0;
    }
    if (this.#blockedSince === 0) this.#blockedSince = now;
    return now - this.#blockedSince;
  }

  #emit(line: { sev: Severity; level: number; msg: string; values: LogValues }): void {
    const now = new Date();
    const entries = Object.entries(line.values).filter(
      (e): e is [string, string | number | boolean] => e[1] !== undefined,
    );
    if (this.#format === 'json') {
      const body: Record<string, unknown> = { ts: now.getTime() / 1000, v: line.level, msg: line.msg };
      if (line.sev === 'E') body['level'] = 'error';
      for (const [k, val] of entries) body[k] = val;
      this.#sink.write(`${JSON.stringify(body)}\n`);
      return;
    }
    const kv = entries.map(([k, val]) => ` ${k}=${textValue(val)}`).join('');
    this.#sink.write(`${klogHeader(line.sev, now)} ${JSON.stringify(line.msg)}${kv}\n`);
  }
}

/** A sink that keeps lines in memory, for tests. */
export function memorySink(): LogSink & { readonly lines: string[] } {
  const lines: string[] = [];
  return { lines, write: (line: string) => lines.push(line) };
}
