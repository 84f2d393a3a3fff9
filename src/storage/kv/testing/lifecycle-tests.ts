// Backend contract: close is idempotent, and afterwards calls fail with BackendUnavailableError.
import assert from 'node:assert/strict';
import { BackendUnavailableError, prefixRange } from '../backend.js';
import { buf, type SuiteTests } from './suite-context.js';
import { WatchRecorder } from './watch-recorder.js';

export const lifecycleTests: SuiteTests = {
  'close is idempotent; later calls fail with BackendUnavailableError; watches end': async (ctx) => {
    const b = await ctx.factory();
    const rec = new WatchRecorder(ctx.timeoutMs);
    b.watch(prefixRange('/backend-suite-close/'), { fromRevision: (await b.currentRevision()) + 1 }, rec);
    await Promise.all([b.close(), b.close()]);
    await b.close();
    const unavailable = (err: unknown) => err instanceof BackendUnavailableError;
    await assert.rejects(b.get('/backend-suite-close/k'), unavailable);
    await assert.rejects(b.list(prefixRange('/backend-suite-close/')), unavailable);
    await assert.rejects(b.create('/backend-suite-close/k', buf('v')), unavailable);
    await assert.rejects(b.currentRevision(), unavailable);
    await rec.waitForError();

    const late = new WatchRecorder(ctx.timeoutMs);
    const w = b.watch(prefixRange('/backend-suite-close/'), { fromRevision: 1 }, late);
    assert.ok((await late.waitForError()) instanceof Error);
    w.cancel();
  },
};
