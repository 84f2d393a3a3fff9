// The outermost filter (kube's WithPanicRecovery): an exception escaping a handler is logged with
// its stack and answered 500 InternalError; a response already under way is cut off instead.
import { isStatusError, newInternalError } from '../../machinery/errors/index.js';
import type { Logger } from '../logging/logger.js';
import { writeStatus } from '../http/respond.js';
import type { Filter, FilterScope } from './filter-scope.js';

export function withPanicRecovery(logger: Logger): Filter {
  const recover = (scope: FilterScope, err: unknown): void => {
    const { req, res } = scope;
    if (isStatusError(err) && !res.headersSent) {
      writeStatus(res, err.status);
      return;
    }
    logger.error("apiserver panic'd", err, { method: req.method, URI: req.url });
    if (res.headersSent) res.destroy();
    else writeStatus(res, newInternalError(err).status);
  };
  // Not an async function: one promise (the catch's) per request rather than three.
  return (next) => (scope) => {
    let p: Promise<void>;
    try {
      p = next(scope);
    } catch (err) {
      recover(scope, err);
      return Promise.resolve();
    }
    return p.catch((err: unknown) => {
      recover(scope, err);
    });
  };
}
