// Temporary data dirs for the SQLite tests, removed when the test file ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

const made: string[] = [];
let registered = false;

/** A fresh directory under the OS temp dir; every one is removed after the file's tests. */
export function tempDir(): string {
  if (!registered) {
    registered = true;
    after(() => {
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
