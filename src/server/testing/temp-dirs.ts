// Temporary directories for a test file's cases, removed after its tests (node:test `after`).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** A maker of fresh directories named `prefix…` under the OS temp dir, all removed after the file's tests. */
export function tempDirs(prefix: string): () => Promise<string> {
  const made: string[] = [];
  after(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
