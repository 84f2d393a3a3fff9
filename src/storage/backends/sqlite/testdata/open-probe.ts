// Child process of exclusive-open.test.ts: tries to open the database and prints what happened as JSON.
import { SqliteBackend } from '../sqlite-backend.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: open-probe <db path>');
const started = performance.now();
try {
  const b = await SqliteBackend.open({ path });
  await b.close();
  process.stdout.write(JSON.stringify({ opened: true, ms: performance.now() - started }));
} catch (err) {
  const e = err instanceof Error ? err : new Error(String(err));
  process.stdout.write(
    JSON.stringify({ opened: false, ms: performance.now() - started, name: e.name, message: e.message }),
  );
}
