// Temporary data dirs for the SQLite tests, removed when the test process exits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh directory under the OS temp dir, removed when the process exits. */
export function tempDir(): string {
  // An exit handler rather than a node:test `after` hook: backends are made inside tests, where
  // `after` would attach to that one test and miss the directories made later.
  if (made.length === 0) {
    process.once('exit', () => {
      for (const d of made) rmSync(d, { recursive: true, force: true });
    });
  }
  const dir = mkdtempSync(join(tmpdir(), 'capstan-sqlite-'));
  made.push(dir);
  return dir;
}

/** A database path in a fresh temp dir. */
export function tempDbPath(): string {
  return join(tempDir(), 'state.db');
}
