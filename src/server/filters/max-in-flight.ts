// --max-requests-inflight / --max-mutating-requests-inflight (kube's WithMaxInFlightLimit): beyond
// the limit a request gets 429 with Retry-After 1, except for system:masters, who always get an
// answer. Long-running requests are not counted. A limit of 0 means no limit.
import type { ApiserverMetrics } from '../metrics/apiserver-metrics.js';
import { writeHttpError } from '../http/respond.js';
import { isMutating } from './request-info.js';
import { thenFinally, type Filter } from './filter-scope.js';

export interface MaxInFlightOptions {
  readonly readOnlyLimit: number;
  readonly mutatingLimit: number;
  readonly metrics: ApiserverMetrics;
}

const privilegedGroup = 'system:masters';

export function withMaxInFlight(opts: MaxInFlightOptions): Filter {
  const inUse = { readOnly: 0, mutating: 0 };
  const limits = { readOnly: opts.readOnlyLimit, mutating: opts.mutatingLimit };
  const ended = (kind: 'readOnly' | 'mutating'): void => {
    inUse[kind]--;
    opts.metrics.setInflight(kind, inUse[kind]);
  };
  const readOnlyEnded = (): void => {
    ended('readOnly');
  };
  const mutatingEnded = (): void => {
    ended('mutating');
  };
  return (next) => (scope) => {
    if (scope.longRunning) return next(scope);
    const kind = isMutating(scope.info) ? 'mutating' : 'readOnly';
    const limit = limits[kind];
    if (limit > 0 && inUse[kind] >= limit && !(scope.user?.groups.includes(privilegedGroup) ?? false)) {
      opts.metrics.recordDropped(kind);
      scope.terminationCode = 429;
      scope.res.setHeader('Retry-After', '1');
      writeHttpError(scope.res, 429, 'Too many requests, please try again later.');
      return Promise.resolve();
    }
    inUse[kind]++;
    opts.metrics.setInflight(kind, inUse[kind]);
    return thenFinally(next, scope, kind === 'mutating' ? mutatingEnded : readOnlyEnded);
  };
}
