// Request logging at -v=3 (kube's httplog), one line when the handler is done; below -v=3 the
// filter only hands the request on.
import type { Logger } from '../logging/logger.js';
import type { Filter, FilterScope, Handler } from './filter-scope.js';

export const requestLogLevel = 3;

async function logged(logger: Logger, next: Handler, scope: FilterScope): Promise<void> {
  try {
    await next(scope);
  } finally {
    const { req, res } = scope;
    logger.v(requestLogLevel, 'HTTP', {
      verb: req.method,
      URI: req.url,
      latency: `${(performance.now() - scope.receivedAt).toFixed(3)}ms`,
      userAgent: req.headers['user-agent'],
      srcIP: `${req.socket.remoteAddress ?? ''}:${req.socket.remotePort ?? ''}`,
      resp: res.statusCode,
    });
  }
}

export function withRequestLogging(logger: Logger): Filter {
  return (next) => (scope) => (logger.enabled(requestLogLevel) ? logged(logger, next, scope) : next(scope));
}
