// Times out requests that are not long-running (kube's WithTimeoutForNonLongRunningRequests and
// WithRequestDeadline): 504 Timeout Status when nothing was written yet, a cut connection when the
// response was under way. The handler's signal is aborted either way; its late writes are dropped.
import { newStatus } from '../../machinery/errors/index.js';
import type { HttpResponse } from '../http/types.js';
import { writeStatus } from '../http/respond.js';
import { parseGoDuration } from '../options/duration.js';
import type { RequestURL } from '../../endpoints/request/request-url.js';
import type { Filter } from './filter-scope.js';

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

export function withRequestTimeout(limitMs: number): Filter {
  return (next) => async (scope) => {
    if (scope.longRunning || limitMs <= 0) {
      await next(scope);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(resolve, requestedTimeout(scope.url, limitMs), 'timeout');
    });
    const work = next(scope);
    try {
      if ((await Promise.race([work, timedOut])) !== 'timeout') return;
    } finally {
      clearTimeout(timer);
    }
    const { res } = scope;
    scope.abort(new Error('request timed out'));
    // The handler keeps running until it notices; its failure is no longer anyone's to answer.
    work.catch(() => undefined);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    writeStatus(res, newStatus({ reason: 'Timeout', message: timeoutMessage, details: {} }));
    dropLateWrites(res);
  };
}
