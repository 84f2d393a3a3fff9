// Child process of crash.test.ts: writes rounds of concurrent updates forever and prints one line per
// acknowledged write ("<revision> <key> <round>") until it is killed.
import { SqliteBackend } from '../sqlite-backend.js';
import { crashKeys, crashValue } from './crash-values.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: crash-writer <db path>');
// Never outlive the test: stop when the parent has gone (stdout breaks) or after a minute.
process.stdout.on('error', () => process.exit(0));
setTimeout(() => process.exit(0), 60_000).unref();
const b = await SqliteBackend.open({ path, compaction: { intervalMs: 0 } });
const revs = new Map<string, number>();
for (let round = 0; ; round++) {
  const results = await Promise.all(
    crashKeys.map((key) => {
      const value = crashValue(key, round);
      const rev = revs.get(key);
      return rev === undefined ? b.create(key, value) : b.update(key, value, { modRevision: rev });
    }),
  );
  const lines: string[] = [];
  results.forEach((r, i) => {
    const key = crashKeys[i];
    if (!r.ok || key === undefined) throw new Error(`write refused for ${String(key)}`);
    revs.set(key, r.revision);
    lines.push(`${r.revision} ${key} ${round}\n`);
  });
  process.stdout.write(lines.join(''));
}
