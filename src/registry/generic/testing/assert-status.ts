// Asserts that a call fails with a Status of the given code, reason and (exact) message.
import assert from 'node:assert/strict';
import type { Status } from '../../../api/meta.js';
import { isStatusError } from '../../../machinery/errors/index.js';

export interface ExpectedStatus {
  readonly code: number;
  readonly reason: string;
  readonly message?: string;
}

/**
 * Awaits `p`, which must reject with a StatusError matching `want`; returns its Status. Given a
 * function, calls it: it may also throw at once (an admission plugin that did not have to wait).
 */
export async function rejectsWithStatus(
  p: Promise<unknown> | (() => unknown),
  want: ExpectedStatus,
): Promise<Status> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    if (!isStatusError(err)) throw err;
    assert.equal(err.status.code, want.code, `code of: ${err.message}`);
    assert.equal(err.status.reason, want.reason, `reason of: ${err.message}`);
    if (want.message !== undefined) assert.equal(err.status.message, want.message);
    return err.status;
  }
  assert.fail('expected a Status error, got success');
}

/** The same for a synchronous call. */
export function throwsWithStatus(fn: () => unknown, want: ExpectedStatus): Promise<Status> {
  return rejectsWithStatus(Promise.resolve().then(fn), want);
}
