// Post-start and pre-shutdown hooks (k8s.io/apiserver/pkg/server/hooks.go). Each post-start hook
// is a `poststarthook/<name>` health check that fails with "not finished" until the hook returns,
// so /readyz turns green only when every hook is done.
import { setMaxListeners } from 'node:events';
import { errorText } from '../logging/error-text.js';
import type { Logger } from '../logging/logger.js';
import { namedCheck, type HealthChecker } from '../healthz/health-checker.js';
import { stopReason } from '../../machinery/errors/stop-reason.js';

export interface HookContext {
  /** Aborted when the server shuts down before the hook has finished. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

export type PostStartHook = (ctx: HookContext) => Promise<void>;
export type PreShutdownHook = () => Promise<void>;

interface PostStartEntry {
  readonly hook: PostStartHook;
  done: boolean;
}

export class LifecycleHooks {
  readonly #postStart = new Map<string, PostStartEntry>();
  readonly #preShutdown = new Map<string, PreShutdownHook>();
  readonly #abort = new AbortController();
  #started = false;

  addPostStartHook(name: string, hook: PostStartHook): void {
    if (this.#started)
      throw new Error(`unable to add post-start hook ${JSON.stringify(name)}: hooks have already run`);
    if (this.#postStart.has(name))
      throw new Error(`unable to add ${JSON.stringify(name)} because it was already registered`);
    this.#postStart.set(name, { hook, done: false });
  }

  addPreShutdownHook(name: string, hook: PreShutdownHook): void {
    if (this.#preShutdown.has(name))
      throw new Error(`unable to add ${JSON.stringify(name)} because it was already registered`);
    this.#preShutdown.set(name, hook);
  }

  /** The `poststarthook/<name>` checks, for /healthz, /livez and /readyz. */
  postStartChecks(): HealthChecker[] {
    return [...this.#postStart].map(([name, entry]) =>
      namedCheck(`poststarthook/${name}`, () => {
        if (!entry.done) throw new Error('not finished');
      }),
    );
  }

  /** Runs every post-start hook concurrently; rejects with the first hook that fails. */
  async runPostStartHooks(logger: Logger): Promise<void> {
    this.#started = true;
    // Every hook, and every controller a hook starts, may listen for the shutdown on this signal:
    // many listeners are expected here, not a leak.
    setMaxListeners(4 * (this.#postStart.size + 1), this.#abort.signal);
    const ctx: HookContext = { signal: this.#abort.signal, logger };
    await Promise.all(
      [...this.#postStart].map(async ([name, entry]) => {
        try {
          await entry.hook(ctx);
          entry.done = true;
        } catch (err) {
          if (this.#abort.signal.aborted) return;
          throw new Error(`PostStartHook ${JSON.stringify(name)} failed: ${errorText(err)}`, {
            cause: err,
          });
        }
      }),
    );
  }

  /** Runs every pre-shutdown hook concurrently; failures are logged, shutdown goes on. */
  async runPreShutdownHooks(logger: Logger): Promise<void> {
    await Promise.all(
      [...this.#preShutdown].map(async ([name, hook]) => {
        try {
          await hook();
        } catch (err) {
          logger.error(`PreShutdownHook ${JSON.stringify(name)} failed`, err);
        }
      }),
    );
  }

  /** Aborts post-start hooks still running. */
  close(): void {
    this.#abort.abort(stopReason);
  }
}
