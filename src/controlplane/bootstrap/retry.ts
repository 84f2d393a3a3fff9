// How the bootstrap hooks keep trying: storage may not answer yet when the server starts, so an
// attempt that fails is repeated with backoff (50 ms doubling up to 2 s) until it succeeds or the
// server shuts down.
import { reasonForError } from '../../machinery/errors/index.js';
import type { HookContext } from '../../server/lifecycle/hooks.js';
import { errorText } from '../../server/logging/error-text.js';

async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** Runs `attempt` until it resolves or the hook's context ends; failures are logged at -v=2. */
export async function retryUntilDone(
  ctx: HookContext,
  what: { message: string; fields?: Record<string, unknown> },
  attempt: () => Promise<void>,
): Promise<void> {
  for (let delay = 50; !ctx.signal.aborted; delay = Math.min(delay * 2, 2000)) {
    try {
      await attempt();
      return;
    } catch (err) {
      ctx.logger.v(2, what.message, { ...what.fields, err: errorText(err) });
      await sleep(delay, ctx.signal);
    }
  }
}

/** A create for which AlreadyExists means done. */
export async function createIfMissing(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (err) {
    if (reasonForError(err) !== 'AlreadyExists') throw err;
  }
}
