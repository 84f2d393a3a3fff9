// --audit-log-path: one JSON event per line, to a file or stdout (`-`), the file rotated as kube's
// lumberjack logger does: past maxsize bytes the file is renamed with its time
// (`audit-2006-01-02T15-04-05.000.log`), and backups beyond maxbackup or older than maxage go.
import { closeSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { auditEventJSON } from './event-json.js';
import type { AuditEvent, AuditSink } from './types.js';

export interface LogBackendOptions {
  readonly path: string;
  /** Bytes; 0 means no rotation (kube's flag is in megabytes). */
  readonly maxSizeBytes: number;
  /** Backups kept; 0 keeps all. */
  readonly maxBackups: number;
  /** Days a backup is kept; 0 keeps them whatever their age. */
  readonly maxAgeDays: number;
  /** Time of rotation names; injected so tests can name files. */
  readonly now?: () => Date;
  /** Told of events that could not be written (the disk full, the directory gone). */
  readonly onError?: (err: Error, dropped: number) => void;
}

const backupTime = (d: Date): string => d.toISOString().replace('Z', '').replaceAll(':', '-');

export class AuditLogBackend implements AuditSink {
  readonly #opts: LogBackendOptions;
  #fd: number | undefined;
  #size = 0;

  constructor(opts: LogBackendOptions) {
    this.#opts = opts;
  }

  /** False when an event could not be written; the rest of the call's events are then dropped too. */
  processEvents(...events: AuditEvent[]): boolean {
    for (const [i, event] of events.entries()) {
      try {
        this.#write(`${auditEventJSON(event)}\n`);
      } catch (err) {
        this.#opts.onError?.(err instanceof Error ? err : new Error(String(err)), events.length - i);
        return false;
      }
    }
    return true;
  }

  #write(line: string): void {
    if (this.#opts.path === '-') {
      process.stdout.write(line);
      return;
    }
    const bytes = Buffer.byteLength(line);
    if (this.#fd === undefined) this.#open();
    if (this.#opts.maxSizeBytes > 0 && this.#size > 0 && this.#size + bytes > this.#opts.maxSizeBytes)
      this.#rotate();
    writeSync(this.#fd ?? this.#open(), line);
    this.#size += bytes;
  }

  #open(): number {
    this.#fd = openSync(this.#opts.path, 'a', 0o600);
    this.#size = statSync(this.#opts.path).size;
    return this.#fd;
  }

  #rotate(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    const path = this.#opts.path;
    const ext = extname(path);
    const stem = basename(path, ext);
    const now = (this.#opts.now ?? (() => new Date()))();
    renameSync(path, join(dirname(path), `${stem}-${backupTime(now)}${ext}`));
    this.#prune(stem, ext, now);
    this.#open();
  }

  /** Backups are named by time, so their names sort oldest first. */
  #prune(stem: string, ext: string, now: Date): void {
    const dir = dirname(this.#opts.path);
    const backups = readdirSync(dir)
      .filter((f) => f.startsWith(`${stem}-`) && f.endsWith(ext) && f !== basename(this.#opts.path))
      .sort();
    const { maxBackups, maxAgeDays } = this.#opts;
    const excess = maxBackups > 0 ? backups.length - maxBackups : 0;
    backups.forEach((f, i) => {
      const old = maxAgeDays > 0 && now.getTime() - statSync(join(dir, f)).mtimeMs > maxAgeDays * 86_400_000;
      if (i < excess || old) unlinkSync(join(dir, f));
    });
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}
