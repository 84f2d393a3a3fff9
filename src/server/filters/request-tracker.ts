// Keeps count of requests in flight so shutdown can drain them (kube's WithWaitGroup) and ends
// long-running ones (WithWatchTermination). Once shutdown has begun, new requests on connections
// still open get 503 "apiserver is shutting down".
import { newServiceUnavailable } from '../../machinery/errors/index.js';
import { writeStatus } from '../http/respond.js';
import { thenFinally, type Filter, type FilterScope } from './filter-scope.js';

export class RequestTracker {
  // Short requests are only counted (a Set's table would grow and shrink with each request); the
  // long-running ones are kept, to be ended at shutdown.
  #shortRunning = 0;
  readonly #longRunning = new Set<FilterScope>();
  #idle: (() => void) | undefined;
  #closing = false;

  get filter(): Filter {
    return (next) => (scope) => {
      if (this.#closing) {
        // HTTP/2 forbids connection headers; its GOAWAY was sent when the listener stopped.
        if (scope.req.httpVersionMajor < 2) scope.res.setHeader('Connection', 'close');
        scope.res.setHeader('Retry-After', '1');
        writeStatus(scope.res, newServiceUnavailable('apiserver is shutting down').status);
        return Promise.resolve();
      }
      if (scope.longRunning) {
        this.#longRunning.add(scope);
        return thenFinally(next, scope, () => {
          this.#longRunning.delete(scope);
        });
      }
      this.#shortRunning++;
      return thenFinally(next, scope, this.#shortEnded);
    };
  }

  readonly #shortEnded = (): void => {
    this.#shortRunning--;
    if (this.#shortRunning === 0) this.#idle?.();
  };

  get inFlight(): number {
    return this.#shortRunning + this.#longRunning.size;
  }

  /** From now on, new requests are refused. */
  startClosing(): void {
    this.#closing = true;
  }

  /** Ends every watch and other long-running request (their clients reconnect elsewhere). */
  endLongRunning(): void {
    for (const scope of this.#longRunning) {
      scope.abort(new Error('apiserver is shutting down'));
      if (!scope.res.writableEnded) scope.res.end();
    }
  }

  /** Resolves when no short request is in flight, or after `timeoutMs`; true when drained. */
  async drain(timeoutMs: number): Promise<boolean> {
    if (this.#shortRunning === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      new Promise<true>((resolve) => {
        this.#idle = () => {
          resolve(true);
        };
      }),
      new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false))),
    ]);
    clearTimeout(timer);
    this.#idle = undefined;
    return drained;
  }

  close(): void {
    this.startClosing();
    this.endLongRunning();
  }
}
