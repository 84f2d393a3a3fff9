// The EndpointSlice controller (pkg/controller/endpointslice): a Service with a selector gets IPv4
// EndpointSlices named <service>-<suffix>, labelled with its service name and this controller,
// owned by the Service, listing the pods it selects with their readiness, at most 100 to a slice
// and one set of ports to a slice (reconcile-slices.ts); the slices follow the pods, and go with
// the Service (garbage collector).
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import type { Endpoint, EndpointSlice, EndpointSlicePort } from '../../../api/discovery/v1/endpoint-slice.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { selectorFromSet } from '../../../machinery/labels/selector-from-set.js';
import type { Logger } from '../../../server/logging/logger.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { controllerRefOf, newControllerRef } from '../simulation/controller-ref.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { servicesOfPod } from './services-of-pod.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import {
  belongsInSlice,
  controllerName,
  endpointOf,
  managedByLabel,
  serviceNameLabel,
  slicePorts,
} from './desired-slice.js';
import { portsKey, reconcileSlices, type NewSlice } from './reconcile-slices.js';
import { WrittenSlices } from './written-slices.js';

const slicesPath = 'discovery.k8s.io/v1/endpointslices';

export interface EndpointSliceControllerOptions {
  readonly client: APIClient;
  readonly services: Informer<Service>;
  readonly pods: Informer<Pod>;
  readonly slices: Informer<EndpointSlice>;
  readonly logger: Logger;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

/**
 * The slice with empty ports or endpoints left out: kube stores it in protobuf, where an empty list
 * reads back as nil, so a placeholder slice is served with `"ports":null,"endpoints":null`.
 */
function withoutEmptyLists<T extends { ports?: EndpointSlicePort[]; endpoints?: Endpoint[] }>(slice: T): T {
  const out = { ...slice };
  if (out.ports?.length === 0) delete out.ports;
  if (out.endpoints?.length === 0) delete out.endpoints;
  return out;
}

export class EndpointSliceController {
  readonly #opts: EndpointSliceControllerOptions;
  readonly #loop: WorkLoop;
  readonly #written = new WrittenSlices();

  constructor(opts: EndpointSliceControllerOptions) {
    this.#opts = opts;
    this.#loop = new WorkLoop({
      queueName: 'endpoint_slice',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'endpointslice',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.services.addHandler((type, svc) => {
      if (type === 'DELETED') this.#written.forget(keyOf(svc));
      this.#loop.queue.add(keyOf(svc));
    });
    opts.pods.addHandler((_t, pod, old) => {
      for (const svc of servicesOfPod(opts.services, pod, old)) this.#loop.queue.add(keyOf(svc));
    });
    opts.slices.addHandler((type, slice) => {
      const name = slice.metadata?.labels?.[serviceNameLabel];
      if (name === undefined) return;
      const key = `${slice.metadata?.namespace ?? ''}/${name}`;
      if (type === 'DELETED') this.#written.gone(key, slice.metadata?.name ?? '');
      this.#loop.queue.add(key);
    });
  }

  run(): void {
    this.#loop.run();
    for (const svc of this.#opts.services.list()) this.#loop.queue.add(keyOf(svc));
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  async #sync(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const svc = this.#opts.services.get(key);
    const selector = svc?.spec?.selector;
    const owned = this.#opts.slices
      .list(namespace)
      .filter(
        (s) =>
          s.metadata?.labels?.[serviceNameLabel] === name &&
          s.metadata.labels[managedByLabel] === controllerName,
      )
      .filter((s) => svc === undefined || controllerRefOf(s)?.uid === svc.metadata?.uid);
    // A Service without a selector has its endpoints managed by someone else; a deleted one's go
    // with it through the garbage collector.
    if (svc === undefined || selector === undefined || Object.keys(selector).length === 0) return;
    // The informer has not yet shown every slice this controller wrote: planning from it would
    // make them again. Its events for them queue the Service once more.
    if (this.#written.stale(key, owned)) return;
    const sel = selectorFromSet(selector);
    const pods = this.#opts.pods
      .list(namespace)
      .filter((p) => sel.matches(p.metadata?.labels ?? {}) && belongsInSlice(p))
      .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    // Endpoints grouped by the ports their pod resolves the Service's to (named target ports differ).
    const groups = new Map<string, { ports: EndpointSlicePort[]; endpoints: Endpoint[] }>();
    for (const pod of pods) {
      const ports = slicePorts(svc, pod);
      const key = portsKey(ports);
      const group = groups.get(key) ?? { ports, endpoints: [] };
      group.endpoints.push(endpointOf(pod));
      groups.set(key, group);
    }
    const plan = reconcileSlices(owned, [...groups.values()]);
    // None made for a Service on its way out: the garbage collector is deleting its slices.
    if (svc.metadata?.deletionTimestamp === undefined)
      for (const slice of plan.create) this.#written.wrote(key, await this.#create(svc, slice));
    for (const slice of plan.update)
      this.#written.wrote(key, await this.#opts.client.update(slicesPath, withoutEmptyLists(copyOf(slice))));
    for (const slice of plan.remove) {
      await this.#delete(slice);
      this.#written.deleted(key, slice);
    }
  }

  #create(svc: Service, slice: NewSlice): Promise<EndpointSlice> {
    const namespace = svc.metadata?.namespace ?? '';
    const name = svc.metadata?.name ?? '';
    return this.#opts.client.create(slicesPath, namespace, {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        generateName: `${name}-`,
        namespace,
        labels: { [serviceNameLabel]: name, [managedByLabel]: controllerName },
        ownerReferences: [newControllerRef(svc, { apiVersion: 'v1', kind: 'Service' })],
      },
      addressType: 'IPv4',
      ...withoutEmptyLists(slice),
    } satisfies EndpointSlice);
  }

  async #delete(slice: EndpointSlice): Promise<void> {
    try {
      await this.#opts.client.delete(
        slicesPath,
        { namespace: slice.metadata?.namespace ?? '', name: slice.metadata?.name ?? '' },
        {},
      );
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
  }
}
