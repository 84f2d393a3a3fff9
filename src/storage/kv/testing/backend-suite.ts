// The contract every kv Backend passes (as k8s.io/apiserver's store_tests.go is shared by its
// stores). Backend-neutral: it uses only the port, a fresh key prefix per test and relative
// revisions, so a backend on a shared etcd cluster can run it as well as an embedded one.
//
//   runBackendSuite('sqlite file', () => SqliteBackend.open({ path }), { ttlSeconds: 1 });
import { describe, it } from 'node:test';
import { lifecycleTests } from './lifecycle-tests.js';
import { readTests } from './read-tests.js';
import {
  suiteContext,
  type BackendFactory,
  type BackendSuiteOptions,
  type SuiteContext,
  type SuiteTests,
} from './suite-context.js';
import { watchTests } from './watch-tests.js';
import { writeTests } from './write-tests.js';

export type { BackendFactory, BackendSuiteOptions } from './suite-context.js';
export { WatchRecorder } from './watch-recorder.js';

/** Registers the contract tests for the backends `factory` makes (a fresh one per test). */
export function runBackendSuite(name: string, factory: BackendFactory, opts: BackendSuiteOptions = {}): void {
  const ctx = suiteContext(factory, opts);
  describe(`Backend contract: ${name}`, () => {
    register(ctx, 'writes', writeTests);
    register(ctx, 'reads', readTests);
    register(ctx, 'watch', watchTests);
    register(ctx, 'lifecycle', lifecycleTests);
  });
}

function register(ctx: SuiteContext, group: string, tests: SuiteTests): void {
  describe(group, () => {
    for (const [title, test] of Object.entries(tests)) {
      it(title, { timeout: ctx.testTimeoutMs }, () => test(ctx));
    }
  });
}
