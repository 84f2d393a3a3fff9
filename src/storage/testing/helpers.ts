// Assertions and small utilities shared by the conformance cases.
import assert from 'node:assert/strict';
import type { KubeList } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors/index.js';
import { StorageError, type StorageErrorCode } from '../errors.js';
import type { TestEnv } from './harness.js';
import { pod, type PodExtras, type TestObject } from './test-object.js';

/** The object's resourceVersion as a revision; fails unless it is a positive decimal. */
export function rvOf(obj: { metadata?: { resourceVersion?: string } }): number {
  const rv = obj.metadata?.resourceVersion ?? '';
  assert.match(rv, /^[1-9][0-9]*$/, `resourceVersion ${JSON.stringify(rv)} is not a positive decimal`);
  return Number(rv);
}

/** The list's resourceVersion as a revision. */
export function listRv(list: KubeList<TestObject>): number {
  return rvOf(list);
}

export function names(items: readonly TestObject[]): string[] {
  return items.map((item) => item.metadata.name ?? '');
}

async function caught(promise: Promise<unknown>, what: string): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  return assert.fail(`${what}: expected an error, the call succeeded`);
}

export interface StorageErrorExpectation {
  /** The caller's key; the error's key must be it under the store's path prefix. */
  key?: string;
  resourceVersion?: number;
  additionalErrorMsg?: string;
}

export async function rejectsStorage(
  promise: Promise<unknown>,
  code: StorageErrorCode,
  expect: StorageErrorExpectation = {},
): Promise<StorageError> {
  const err = await caught(promise, `StorageError ${code}`);
  if (!(err instanceof StorageError)) {
    return assert.fail(`expected StorageError ${code}, got ${String(err)}`);
  }
  assert.equal(err.code, code, `StorageError code (${err.message})`);
  if (expect.key !== undefined) {
    assert.ok(err.key.endsWith(expect.key), `error key ${err.key} should end with ${expect.key}`);
  }
  if (expect.resourceVersion !== undefined) assert.equal(err.resourceVersion, expect.resourceVersion);
  if (expect.additionalErrorMsg !== undefined)
    assert.equal(err.additionalErrorMsg, expect.additionalErrorMsg);
  return err;
}

export interface StatusExpectation {
  code: number;
  reason: string;
  message?: string;
  messagePrefix?: string;
}

export async function rejectsStatus(
  promise: Promise<unknown>,
  expect: StatusExpectation,
): Promise<StatusError> {
  const err = await caught(promise, `${expect.code} ${expect.reason}`);
  if (!(err instanceof StatusError)) {
    return assert.fail(`expected a StatusError ${expect.code} ${expect.reason}, got ${String(err)}`);
  }
  assert.equal(err.status.code, expect.code, `status code (${err.message})`);
  assert.equal(err.status.reason, expect.reason, `status reason (${err.message})`);
  assert.equal(err.status.status, 'Failure');
  if (expect.message !== undefined) assert.equal(err.status.message, expect.message);
  if (expect.messagePrefix !== undefined) {
    const message = err.status.message ?? '';
    assert.ok(
      message.startsWith(expect.messagePrefix),
      `message ${JSON.stringify(message)} should start with ${JSON.stringify(expect.messagePrefix)}`,
    );
  }
  return err;
}

/**
 * Kube's storage.NewTooLargeResourceVersionError as the client sees it. The current revision in the
 * message must lie within `current` (a backend shared with other writers may move on meanwhile).
 */
/**
 * Asserts kube's 504 "Too large resource version" error; the reported current revision must lie
 * between `before` (read before the call) and the store's revision read after the call settled.
 */
export async function rejectsTooLarge(
  promise: Promise<unknown>,
  requested: number,
  range: { before: number; after: () => Promise<number> },
): Promise<void> {
  const err = await rejectsStatus(promise, { code: 504, reason: 'Timeout' });
  const current = [range.before, await range.after()] as const;
  const message = err.status.message ?? '';
  const match = /^Timeout: Too large resource version: ([0-9]+), current: ([0-9]+)$/.exec(message);
  assert.ok(match !== null, `unexpected message ${JSON.stringify(message)}`);
  assert.equal(Number(match[1]), requested, message);
  const reported = Number(match[2]);
  assert.ok(
    reported >= current[0] && reported <= current[1],
    `${message}: current should be in [${current[0]}, ${current[1]}]`,
  );
  assert.deepEqual(err.status.details?.causes?.[0], {
    reason: 'ResourceVersionTooLarge',
    message: 'Too large resource version',
  });
}

export async function rejectsBadResourceVersion(promise: Promise<unknown>): Promise<void> {
  await rejectsStatus(promise, {
    code: 400,
    reason: 'BadRequest',
    messagePrefix: 'invalid resource version: ',
  });
}

export const listTooOld = 'The resourceVersion for the provided list is too old.';
export const watchTooOld = 'The resourceVersion for the provided watch is too old.';
export const inconsistentContinue =
  'The provided continue parameter is too old to display a consistent list result. You can start a new ' +
  'list without the continue parameter, or use the continue token in this response to retrieve the ' +
  'remainder of the results. Continuing with the provided token results in an inconsistent list - objects ' +
  'that were created, modified, or deleted between the time the first chunk was returned and now may show ' +
  'up in the list.';

/** Resolves once `check` returns true; fails after `timeoutMs`. */
export async function poll(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Creates one pod per name in the order given; returns the stored objects by name. */
export async function seed(
  env: TestEnv,
  podNames: readonly string[],
  extras: (name: string) => PodExtras = () => ({}),
): Promise<Map<string, TestObject>> {
  const out = new Map<string, TestObject>();
  for (const name of podNames) {
    out.set(name, await env.store.create(env.key(name), pod(env.ns, name, extras(name))));
  }
  return out;
}

/** The stored object by name from a seed() result. */
export function pick(seeded: ReadonlyMap<string, TestObject>, name: string): TestObject {
  const obj = seeded.get(name);
  assert.ok(obj !== undefined, `no seeded object ${name}`);
  return obj;
}

/** Replaces the labels of the object at `key` and returns the stored result. */
export function relabel(env: TestEnv, key: string, labels: Record<string, string>): Promise<TestObject> {
  return env.store.guaranteedUpdate(key, {
    tryUpdate: (current) => {
      assert.ok(current !== null);
      return { ...current, metadata: { ...current.metadata, labels } };
    },
  });
}

export interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

/** Kube's continue token encoding: unpadded base64url of `{"v","rv","start"}` JSON in that order. */
export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: token.v, rv: token.rv, start: token.start }), 'utf8').toString(
    'base64url',
  );
}

export function decodeContinue(token: string): unknown {
  assert.match(token, /^[A-Za-z0-9_-]+$/, `continue token ${token} is not unpadded base64url`);
  return JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
}
