// Times out requests that are not long-running (kube's WithTimeoutForNonLongRunningRequests and
// WithRequestDeadline): 504 Timeout Status when nothing was written yet, a cut connection when the
// response was under way. The handler's signal is aborted either way; its late writes are dropped.
import { newStatus } from '../../machinery/errors/index.js';
import type { HttpResponse } from '../http/types.js';
import { writeStatus } from '../http/respond.js';
import { parseGoDuration } from '../../machinery/time/go-duration.js';
import type { RequestURL } from '../../endpoints/request/request-url.js';
import type { Deadlines } from './deadlines.js';
import type { Filter, FilterScope } from './filter-scope.js';

const timeoutMessage = 'Timeout: request did not complete within the allotted timeout';

/** After a timeout answer, what the handler still writes goes nowhere. */
function dropLateWrites(res: HttpResponse): void {
  Object.assign(res, {
    writeHead: () => res,
    setHeader: () => res,
    write: () => true,
    end: () => res,
  });
}

/** The `timeout` query parameter, when it asks for less than the server's limit. */
function requestedTimeout(url: RequestURL, limitMs: number): number {
  if (url.search === '') return limitMs;
  const raw = url.searchParams.get('timeout');
  if (raw === null || raw === '') return limitMs;
  try {
    const ms = parseGoDuration(raw);
    return ms > 0 && ms < limitMs ? ms : limitMs;
  } catch {
    return limitMs;
  }
}

/** The 504 (or the cut connection) of a request whose time is up. */
function timedOut(scope: FilterScope): void {
  const { res } = scope;
  scope.abort(new Error('request timed out'));
  scope.terminationCode = 504;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  writeStatus(res, newStatus({ reason: 'Timeout', message: timeoutMessage, details: {} }));
  dropLateWrites(res);
}

/**
 * The filter; its deadlines are kept by one timer per timeout length (deadlines.ts), not one per
 * request. When time is up the request is answered and the chain goes on outward; the handler
 * keeps running until it notices, and its outcome is no longer anyone's to answer.
 */
export function withRequestTimeout(limitMs: number, deadlines: Deadlines): Filter {
  return (next) => (scope) => {
    if (scope.longRunning || limitMs <= 0) return next(scope);
    return new Promise<void>((resolve) => {
      const end = deadlines.start(requestedTimeout(scope.url, limitMs), () => {
        timedOut(scope);
        resolve();
      });
      const work = next(scope);
      work.then(
        () => {
          end();
          resolve();
        },
        // Fails as the handler failed, unless the timeout answered first.
        () => {
          end();
          resolve(work);
        },
      );
    });
  };
}
