// The environment each Backend contract test runs in: a fresh backend from the factory, a key prefix
// no other test uses (so a backend on a shared etcd cluster can run the suite too), and cleanup.
import type { Backend, KeyValue } from '../backend.js';

export type BackendFactory = () => Promise<Backend>;

export interface BackendSuiteOptions {
  /** TTL in seconds for the expiry test (default 1; etcd grants at least its minimum lease TTL). */
  readonly ttlSeconds?: number;
  /** How long to wait for something asynchronous: an event, a progress report (default 5000 ms). */
  readonly timeoutMs?: number;
  /** Per-test timeout (default 20000 ms). */
  readonly testTimeoutMs?: number;
}

export interface SuiteContext {
  readonly factory: BackendFactory;
  readonly ttlSeconds: number;
  readonly timeoutMs: number;
  readonly testTimeoutMs: number;
}

export function suiteContext(factory: BackendFactory, opts: BackendSuiteOptions = {}): SuiteContext {
  return Object.freeze({
    factory,
    ttlSeconds: opts.ttlSeconds ?? 1,
    timeoutMs: opts.timeoutMs ?? 5000,
    testTimeoutMs: opts.testTimeoutMs ?? 20000,
  });
}

/** Contract tests by name; the suite registers each with node:test. */
export type SuiteTests = Readonly<Record<string, (ctx: SuiteContext) => Promise<void>>>;

let prefixes = 0;

/** Runs `fn` against a fresh backend and a fresh key prefix ("/backend-suite/<n>-<random>/"). */
export async function withBackend(
  ctx: SuiteContext,
  fn: (b: Backend, prefix: string) => Promise<void>,
): Promise<void> {
  const b = await ctx.factory();
  prefixes++;
  const prefix = `/backend-suite/${prefixes}-${Math.random().toString(36).slice(2, 8)}/`;
  try {
    await fn(b, prefix);
  } finally {
    await b.close();
  }
}

export const buf = (s: string): Buffer => Buffer.from(s, 'utf8');

/** A KeyValue as plain data, for deepEqual (Buffers become strings). */
export function plain(
  kv: KeyValue | null,
): { key: string; value: string; create: number; mod: number } | null {
  if (kv === null) return null;
  return { key: kv.key, value: kv.value.toString('utf8'), create: kv.createRevision, mod: kv.modRevision };
}

/** The revision of a successful write; fails the test otherwise. */
export function okRevision(res: { ok: boolean; revision: number }, what: string): number {
  if (!res.ok) throw new Error(`${what}: the write was refused`);
  return res.revision;
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it holds or `timeoutMs` passes. */
export async function eventually(
  what: string,
  timeoutMs: number,
  check: () => boolean | Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}
