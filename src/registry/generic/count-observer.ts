// startObservingCount (k8s.io/apiserver/pkg/registry/generic/registry/store.go): polls the number of
// stored objects for `apiserver_storage_objects` with kube's jittered, sliding period.
import type { Interface } from '../../storage/interfaces.js';
import type { ObjectCountMetric } from './store-definition.js';

/** kube's resourceCountPollPeriodJitter. */
const jitterFactor = 1.2;

export interface CountObserverInit {
  readonly storage: Interface;
  /** The collection's key root (`/configmaps`). */
  readonly keyRoot: string;
  /** The resource label value (`configmaps`, `deployments.apps`). */
  readonly resource: string;
  readonly periodMs: number;
  readonly metric: ObjectCountMetric;
}

/** Starts polling at once and then every period plus jitter; returns the function that stops it. */
export function startObservingCount(init: CountObserverInit): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const poll = async (): Promise<void> => {
    let count: number;
    try {
      count = await init.storage.count(init.keyRoot);
    } catch {
      count = -1;
    }
    if (stopped) return;
    init.metric.set(init.resource, count);
    schedule();
  };
  const schedule = (): void => {
    const wait = init.periodMs + Math.random() * jitterFactor * init.periodMs;
    timer = setTimeout(() => void poll(), wait);
    // The poller never keeps the process alive on its own.
    timer.unref();
  };
  void poll();
  return () => {
    if (stopped) return;
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    init.metric.delete(init.resource);
  };
}
