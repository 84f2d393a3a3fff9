// kube's WithPriorityAndFairness: each request is matched against the FlowSchemas in force and
// answered with the X-Kubernetes-PF-FlowSchema-UID and X-Kubernetes-PF-PriorityLevel-UID headers.
// Long-running requests other than watches are not classified, as in kube. With fair queuing
// (off by default) a classified request other than a watch then waits for a seat at its level,
// or gets kube's 429; without it --max-requests-inflight limits as before.
import type { Classification, RequestClassifier } from '../flowcontrol/classifier.js';
import type { FairQueuing } from '../flowcontrol/fair-queuing.js';
import { writeHttpError } from '../http/respond.js';
import type { FlowControlMetrics } from '../metrics/apiserver-metrics.js';
import type { FlowLabels } from '../metrics/prom-flowcontrol-metrics.js';
import { thenFinally, type Filter, type FilterScope, type Handler } from './filter-scope.js';

/** Where the filter finds the classifier of the configuration in force (none before the first). */
export interface ClassifierSource {
  current(): RequestClassifier | undefined;
}

export const flowSchemaUIDHeader = 'X-Kubernetes-PF-FlowSchema-UID';
export const priorityLevelUIDHeader = 'X-Kubernetes-PF-PriorityLevel-UID';

export function withPriorityAndFairness(
  source: ClassifierSource,
  queuing?: FairQueuing,
  metrics?: FlowControlMetrics,
): Filter {
  // Counted as dispatched; executing until it ends. A watch's execution stage is only its start
  // in kube, so a watch is counted as dispatched and not as executing.
  const dispatch = (next: Handler, scope: FilterScope, labels: FlowLabels): Promise<void> => {
    metrics?.dispatched(labels);
    if (scope.longRunning) return next(scope);
    metrics?.addExecuting(labels, 1);
    return thenFinally(next, scope, () => {
      metrics?.addExecuting(labels, -1);
    });
  };
  // Not an async function: without queuing (the default), a request makes no promise of its own here.
  return (next) => (scope) => {
    if (scope.longRunning && scope.info.verb !== 'watch') return next(scope);
    const classifier = source.current();
    const c = classifier?.classify(scope.user, scope.info);
    if (c === undefined) return next(scope);
    scope.res.setHeader(priorityLevelUIDHeader, c.priorityLevelUID);
    scope.res.setHeader(flowSchemaUIDHeader, c.flowSchemaUID);
    const labels = { flowSchema: c.flowSchemaName, priorityLevel: c.priorityLevelName };
    if (queuing === undefined || scope.longRunning || classifier === undefined)
      return dispatch(next, scope, labels);
    return queued(next, scope, { queuing, classifier, c, labels });
  };

  async function queued(
    next: Handler,
    scope: FilterScope,
    q: { queuing: FairQueuing; classifier: RequestClassifier; c: Classification; labels: FlowLabels },
  ): Promise<void> {
    const { queuing, classifier, c, labels } = q;
    const distinguisher =
      c.distinguisher === 'ByUser'
        ? (scope.user?.name ?? '')
        : c.distinguisher === 'ByNamespace'
          ? scope.info.namespace
          : '';
    const queuedAt = performance.now();
    const release = await queuing.acquire(c, {
      distinguisher,
      config: classifier,
      signal: scope.signal,
    });
    // kube's APF queue wait tracker (a max): the SLI latency leaves the wait out.
    scope.apfQueueWaitMs = Math.max(scope.apfQueueWaitMs, performance.now() - queuedAt);
    if (release === undefined) {
      metrics?.rejected(labels, scope.signal.aborted ? 'cancelled' : 'queue-full');
      scope.terminationCode = 429;
      scope.res.setHeader('Retry-After', '1');
      writeHttpError(scope.res, 429, 'Too many requests, please try again later.');
      return;
    }
    try {
      await dispatch(next, scope, labels);
    } finally {
      release();
    }
  }
}
