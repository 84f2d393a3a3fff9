// The classification half of kube's WithPriorityAndFairness: each request is matched against the
// FlowSchemas in force and answered with the X-Kubernetes-PF-FlowSchema-UID and
// X-Kubernetes-PF-PriorityLevel-UID headers. Long-running requests other than watches are not
// classified, as in kube. Queuing is not done here: --max-requests-inflight still limits.
import type { RequestClassifier } from '../flowcontrol/classifier.js';
import type { Filter } from './filter-scope.js';

/** Where the filter finds the classifier of the configuration in force (none before the first). */
export interface ClassifierSource {
  current(): RequestClassifier | undefined;
}

export const flowSchemaUIDHeader = 'X-Kubernetes-PF-FlowSchema-UID';
export const priorityLevelUIDHeader = 'X-Kubernetes-PF-PriorityLevel-UID';

export function withPriorityAndFairness(source: ClassifierSource): Filter {
  return (next) => (scope) => {
    if (scope.longRunning && scope.info.verb !== 'watch') return next(scope);
    const c = source.current()?.classify(scope.user, scope.info);
    if (c !== undefined) {
      scope.res.setHeader(priorityLevelUIDHeader, c.priorityLevelUID);
      scope.res.setHeader(flowSchemaUIDHeader, c.flowSchemaUID);
    }
    return next(scope);
  };
}
