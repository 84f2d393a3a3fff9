// The storage.Interface conformance suite (k8s.io/apiserver/pkg/storage/testing): every store —
// KvStore over each backend, and the Cacher — registers it once and must pass every case.
import { describe } from 'node:test';
import { registerCreateTests, registerGetTests } from './create-get.js';
import { registerDeleteTests } from './delete.js';
import { resolveOptions, type ConformanceOptions, type StoreHarness, type SuiteContext } from './harness.js';
import { registerPagingTests } from './list-paging.js';
import { registerListTests } from './list.js';
import { registerCountTests, registerStoreStateTests } from './misc.js';
import { registerUpdateTests } from './update.js';
import { registerWatchFilterTests } from './watch-filter.js';
import { registerWatchTests } from './watch.js';

export type { ConformanceOptions, StoreHarness } from './harness.js';
export type { TestObject, TestSpec } from './test-object.js';
export { pod } from './test-object.js';
export { everything, testPredicate, type TestSelector } from './predicate.js';

/**
 * Registers the suite under `describe(name)`. Every case asks `newHarness` for a store, writes only
 * under a key prefix of its own (`/pods/<unique namespace>/…`), and closes the harness when done.
 */
export function runStorageConformance(
  name: string,
  newHarness: () => Promise<StoreHarness>,
  opts?: ConformanceOptions,
): void {
  const ctx: SuiteContext = { newHarness, opts: resolveOptions(opts) };
  void describe(`storage conformance: ${name}`, () => {
    registerCreateTests(ctx);
    registerGetTests(ctx);
    registerListTests(ctx);
    registerPagingTests(ctx);
    registerUpdateTests(ctx);
    registerDeleteTests(ctx);
    registerWatchTests(ctx);
    registerWatchFilterTests(ctx);
    registerCountTests(ctx);
    registerStoreStateTests(ctx);
  });
}
