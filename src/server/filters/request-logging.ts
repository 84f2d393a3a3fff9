// Request logging at -v=3 (kube's httplog), one line when the handler is done.
import type { Logger } from '../logging/logger.js';
import type { Filter } from './filter-scope.js';

export const requestLogLevel = 3;

export function withRequestLogging(logger: Logger): Filter {
  return (next) => async (scope) => {
    if (!logger.enabled(requestLogLevel)) {
      await next(scope);
      return;
    }
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
  };
}
