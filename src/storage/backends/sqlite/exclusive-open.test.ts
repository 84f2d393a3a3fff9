// The data dir belongs to one server: a second opener fails fast, naming the file, and never hangs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { BackendUnavailableError } from '../../kv/backend.js';
import { SqliteBackend } from './sqlite-backend.js';
import { tempDbPath } from './testdata/temp-dirs.js';

const probe = fileURLToPath(new URL('./testdata/open-probe.ts', import.meta.url));
/** The repository root, where `--import tsx` resolves. */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

interface ProbeResult {
  readonly opened: boolean;
  readonly ms: number;
  readonly name?: string;
  readonly message?: string;
}

async function probeOpen(path: string): Promise<ProbeResult> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', probe, path], {
    cwd: root,
    timeout: 15_000,
  });
  return JSON.parse(stdout) as ProbeResult;
}

describe('exclusive open', () => {
  it('a second open in the same process fails fast with an error naming the file', async () => {
    const path = tempDbPath();
    const first = await SqliteBackend.open({ path });
    const started = performance.now();
    await assert.rejects(SqliteBackend.open({ path }), (err: unknown) => {
      assert.ok(err instanceof BackendUnavailableError);
      assert.ok(err.message.includes(path), err.message);
      assert.match(err.message, /locked by another process/);
      return true;
    });
    assert.ok(performance.now() - started < 2_000, 'the second open should fail within busy_timeout');
    await first.close();
    const again = await SqliteBackend.open({ path });
    await again.close();
  });

  it(
    'a second process fails fast with an error naming the file; after close it can open',
    { timeout: 30_000 },
    async () => {
      const path = tempDbPath();
      const first = await SqliteBackend.open({ path });
      await first.create('/held', Buffer.from('x'));
      const refused = await probeOpen(path);
      assert.equal(refused.opened, false);
      assert.equal(refused.name, 'BackendUnavailableError');
      assert.ok(refused.message?.includes(path), refused.message);
      assert.ok(refused.ms < 2_000, `took ${refused.ms} ms`);
      await first.close();
      assert.equal((await probeOpen(path)).opened, true);
    },
  );
});
