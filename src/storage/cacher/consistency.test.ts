// Many writers and many watchers at once (see testing/consistency-scenario.ts), run in a worker so the
// test runner's promise tracking does not triple its time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConsistencyReport, ConsistencyScenario } from './testing/consistency-scenario.js';
import { runInWorker } from './testing/run-in-worker.js';

const scenario: ConsistencyScenario = { writers: 20, opsPerWriter: 1000, keyCount: 200, watcherCount: 50 };

describe('cacher consistency under concurrent writers and watchers', () => {
  it(
    'every watcher converges on the final state and sees every revision once',
    { timeout: 60_000 },
    async () => {
      const url = new URL('./testing/consistency-scenario.ts', import.meta.url);
      const report = (await runInWorker(url, 'runConsistencyScenario', scenario)) as ConsistencyReport;
      assert.equal(report.watchers, scenario.watcherCount);
      assert.ok(report.eventsChecked > 0);
    },
  );
});
