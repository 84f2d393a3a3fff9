import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BufferedAuditBackend, type BatchConfig } from './buffered-backend.js';
import { withAuditMode } from './audit-modes.js';
import { TokenBucket } from './token-bucket.js';
import { testEvent } from './testing/test-event.js';
import type { AuditEvent, AuditSink } from './types.js';

/** A delegate recording batches; each batch waits for `release()` when `hold` is set. */
function recorder(opts: { hold?: boolean; result?: boolean } = {}) {
  const batches: string[][] = [];
  const pending: (() => void)[] = [];
  let arrived: (() => void) | undefined;
  const sink: AuditSink = {
    processEvents(...events: AuditEvent[]): Promise<boolean> {
      batches.push(events.map((e) => e.auditID));
      if (arrived !== undefined) arrived();
      if (opts.hold !== true) return Promise.resolve(opts.result ?? true);
      return new Promise((resolve) => {
        pending.push(() => {
          resolve(opts.result ?? true);
        });
      });
    },
  };
  return {
    sink,
    batches,
    /** Resolves once `n` batches have come. */
    batchesCome: async (n: number): Promise<void> => {
      // The backend's timers are unref'd (they must not hold a process open): keep this one alive.
      const alive = setInterval(() => undefined, 1000);
      try {
        while (batches.length < n) await new Promise<void>((resolve) => (arrived = resolve));
      } finally {
        clearInterval(alive);
      }
    },
    release: () => {
      for (const p of pending.splice(0)) p();
    },
  };
}

const noDrops = (err: Error): void => {
  assert.fail(`dropped: ${err.message}`);
};

const config = (over: Partial<BatchConfig> = {}): BatchConfig => ({
  bufferSize: 100,
  maxBatchSize: 3,
  maxBatchWaitMs: 60_000,
  asyncDelegate: true,
  ...over,
});

describe('BufferedAuditBackend (batch mode)', () => {
  it('hands a batch over once maxBatchSize events wait, the rest at close; events are copied', async () => {
    const r = recorder();
    const b = new BufferedAuditBackend({ delegate: r.sink, config: config(), onError: noDrops });
    const first = testEvent('a');
    assert.equal(b.processEvents(first, testEvent('b')), true);
    first.auditID = 'changed later';
    assert.deepEqual(r.batches, []);
    b.processEvents(testEvent('c'), testEvent('d'));
    await r.batchesCome(1);
    assert.deepEqual(r.batches, [['a', 'b', 'c']]);
    await b.close();
    assert.deepEqual(r.batches, [['a', 'b', 'c'], ['d']]);
  });

  it('sends a batch that is not full once maxBatchWait has passed', async () => {
    const r = recorder();
    const b = new BufferedAuditBackend({
      delegate: r.sink,
      config: config({ maxBatchWaitMs: 10 }),
      onError: noDrops,
    });
    b.processEvents(testEvent('lonely'));
    await r.batchesCome(1);
    assert.deepEqual(r.batches, [['lonely']]);
    await b.close();
  });

  it('never makes the caller wait: a full buffer drops what does not fit, reported as kube does', async () => {
    const r = recorder({ hold: true });
    const errors: [string, number][] = [];
    const b = new BufferedAuditBackend({
      delegate: r.sink,
      config: config({ bufferSize: 2, maxBatchSize: 1, asyncDelegate: false }),
      onError: (e, n) => errors.push([e.message, n]),
    });
    // The first event goes to the (stuck) delegate at once; two more fill the buffer.
    b.processEvents(testEvent('1'));
    await r.batchesCome(1);
    assert.equal(b.processEvents(testEvent('2'), testEvent('3'), testEvent('4'), testEvent('5')), true);
    assert.deepEqual(errors, [['audit buffer queue blocked', 2]]);
    const closed = b.close();
    for (let n = 1; n <= 3; n++) {
      await r.batchesCome(n);
      r.release();
    }
    await closed;
    assert.deepEqual(r.batches, [['1'], ['2'], ['3']]);
    b.processEvents(testEvent('after'));
    assert.deepEqual(errors.at(-1), ['audit backend shut down', 1]);
  });

  it('hands batches over side by side to an async delegate, one after another to a sync one', async () => {
    for (const asyncDelegate of [true, false]) {
      const r = recorder({ hold: true });
      const b = new BufferedAuditBackend({
        delegate: r.sink,
        config: config({ maxBatchSize: 1, asyncDelegate }),
        onError: noDrops,
      });
      b.processEvents(testEvent('1'), testEvent('2'));
      await r.batchesCome(1);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(r.batches.length, asyncDelegate ? 2 : 1, `async ${String(asyncDelegate)}`);
      const closed = b.close();
      r.release();
      await r.batchesCome(2);
      r.release();
      await closed;
    }
  });

  it('throttles batches to qps after the burst', async () => {
    const r = recorder();
    const waits: number[] = [];
    let clock = 1000;
    const b = new BufferedAuditBackend({
      delegate: r.sink,
      config: config({ maxBatchSize: 1, throttle: { qps: 10, burst: 2 } }),
      onError: noDrops,
      // A clock that stands still until the test sleeps: the third batch waits a whole 1/qps.
      now: () => clock,
      sleep: (ms) => {
        waits.push(ms);
        clock += ms;
        return Promise.resolve();
      },
    });
    b.processEvents(testEvent('1'), testEvent('2'), testEvent('3'));
    await b.close();
    assert.deepEqual(r.batches, [['1'], ['2'], ['3']]);
    assert.deepEqual(waits, [100]);
  });
});

describe('audit modes', () => {
  it('blocking waits for the backend and ignores its failures; blocking-strict passes them on', async () => {
    const failing = recorder({ result: false });
    const batch = config();
    const blocking = withAuditMode(failing.sink, { mode: 'blocking', batch, onBufferError: noDrops });
    const strict = withAuditMode(failing.sink, {
      mode: 'blocking-strict',
      batch,
      onBufferError: noDrops,
    });
    assert.equal(await blocking.processEvents(testEvent('a')), true);
    assert.equal(await strict.processEvents(testEvent('b')), false);
    assert.deepEqual(failing.batches, [['a'], ['b']]);
    const batched = withAuditMode(failing.sink, { mode: 'batch', batch, onBufferError: noDrops });
    assert.equal(batched.processEvents(testEvent('c')), true);
    await batched.close?.();
  });
});

describe('TokenBucket', () => {
  it('starts with burst tokens and refills at qps', () => {
    let now = 0;
    const bucket = new TokenBucket(2, 2, () => now);
    assert.deepEqual([bucket.reserve(), bucket.reserve(), bucket.reserve()], [0, 0, 500]);
    now = 2000;
    assert.deepEqual([bucket.reserve(), bucket.reserve()], [0, 0]);
  });
});
