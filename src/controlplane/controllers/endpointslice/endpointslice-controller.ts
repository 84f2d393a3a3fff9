// The EndpointSlice controller (pkg/controller/endpointslice), reduced to one slice per Service:
// a Service with a selector gets an IPv4 EndpointSlice named <service>-<suffix>, labelled with its
// service name and this controller, owned by the Service, listing the pods it selects with their
// readiness; the slice follows the pods, and goes with the Service (garbage collector).
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import type { EndpointSlice } from '../../../api/discovery/v1/endpoint-slice.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { selectorFromSet } from '../../../machinery/labels/selector-from-set.js';
import type { Logger } from '../../../server/logging/logger.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { controllerRefOf, newControllerRef } from '../simulation/controller-ref.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { canonicalJSON } from '../deployment/template-hash.js';
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

export class EndpointSliceController {
  readonly #opts: EndpointSliceControllerOptions;
  readonly #loop: WorkLoop;

  constructor(opts: EndpointSliceControllerOptions) {
    this.#opts = opts;
    this.#loop = new WorkLoop({
      queueName: 'endpoint_slice',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'endpointslice',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.services.addHandler((_t, svc) => {
      this.#loop.queue.add(keyOf(svc));
    });
    opts.pods.addHandler((_t, pod, old) => {
      for (const svc of servicesOfPod(opts.services, pod, old)) this.#loop.queue.add(keyOf(svc));
    });
    opts.slices.addHandler((_t, slice) => {
      const name = slice.metadata?.labels?.[serviceNameLabel];
      if (name !== undefined) this.#loop.queue.add(`${slice.metadata?.namespace ?? ''}/${name}`);
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
    const sel = selectorFromSet(selector);
    const pods = this.#opts.pods
      .list(namespace)
      .filter((p) => sel.matches(p.metadata?.labels ?? {}) && belongsInSlice(p))
      .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    const desired: Pick<EndpointSlice, 'addressType' | 'endpoints' | 'ports'> = {
      addressType: 'IPv4',
      endpoints: pods.map(endpointOf),
      ports: slicePorts(svc, pods[0]),
    };
    const [slice, ...extra] = owned;
    for (const s of extra) await this.#delete(s);
    if (slice === undefined) {
      await this.#opts.client.create(slicesPath, namespace, {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          generateName: `${name}-`,
          namespace,
          labels: { [serviceNameLabel]: name, [managedByLabel]: controllerName },
          ownerReferences: [newControllerRef(svc, { apiVersion: 'v1', kind: 'Service' })],
        },
        ...desired,
      } satisfies EndpointSlice);
      return;
    }
    const current = { addressType: slice.addressType, endpoints: slice.endpoints, ports: slice.ports ?? [] };
    if (canonicalJSON(current) === canonicalJSON(desired)) return;
    await this.#opts.client.update(slicesPath, { ...copyOf(slice), ...desired });
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
