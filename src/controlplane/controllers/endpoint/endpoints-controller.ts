// The endpoints controller (pkg/controller/endpoint): a Service with a selector gets core/v1
// Endpoints of its name listing the pods it selects that have an IP: ready ones under addresses,
// the others under notReadyAddresses (all under addresses with publishNotReadyAddresses), grouped
// into subsets by their resolved ports (RepackSubsets), sorted by IP; terminating pods are left out.
// At most 1,000 addresses, the rest cut and the Endpoints annotated (endpoints-capacity.ts).
// When the Service goes, so do its Endpoints. Selectorless Services' Endpoints are left alone.
import type { Endpoints, EndpointAddress, EndpointSubset } from '../../../api/core/v1/endpoints.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { selectorFromSet } from '../../../machinery/labels/selector-from-set.js';
import type { Logger } from '../../../server/logging/logger.js';
import { canonicalJSON } from '../deployment/template-hash.js';
import { belongsInSlice, slicePorts } from '../endpointslice/desired-slice.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { isPodReady } from '../simulation/controller-ref.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { servicesOfPod } from '../endpointslice/services-of-pod.js';
import { WorkLoop } from '../simulation/work-loop.js';
import { capacityAnnotations, overCapacityAnnotation, truncateSubsets } from './endpoints-capacity.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';

export interface EndpointsControllerOptions {
  readonly client: APIClient;
  readonly services: Informer<Service>;
  readonly pods: Informer<Pod>;
  readonly endpoints: Informer<Endpoints>;
  readonly logger: Logger;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

function addressOf(pod: Pod, svc: Service): EndpointAddress {
  const hostname = pod.spec?.hostname;
  const named = hostname !== undefined && pod.spec?.subdomain === svc.metadata?.name;
  return {
    ip: pod.status?.podIP ?? '',
    ...(named ? { hostname } : {}),
    ...(pod.spec?.nodeName === undefined ? {} : { nodeName: pod.spec.nodeName }),
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata?.namespace ?? '',
      name: pod.metadata?.name ?? '',
      uid: pod.metadata?.uid ?? '',
    },
  };
}

/** The subsets of a Service over its selected pods. */
export function desiredSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
  const groups = new Map<string, EndpointSubset>();
  const byIP = (a: EndpointAddress, b: EndpointAddress): number => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0);
  for (const pod of pods) {
    if (!belongsInSlice(pod) || pod.metadata?.deletionTimestamp !== undefined) continue;
    const ports = slicePorts(svc, pod).map((p) => ({
      ...(p.name === '' ? {} : { name: p.name }),
      port: p.port ?? 0,
      protocol: p.protocol ?? 'TCP',
      ...(p.appProtocol === undefined ? {} : { appProtocol: p.appProtocol }),
    }));
    const id = canonicalJSON(ports);
    const subset = groups.get(id) ?? { ports };
    groups.set(id, subset);
    const ready = isPodReady(pod) || svc.spec?.publishNotReadyAddresses === true;
    const list = ready ? (subset.addresses ??= []) : (subset.notReadyAddresses ??= []);
    list.push(addressOf(pod, svc));
  }
  const subsets = [...groups.values()];
  for (const s of subsets) {
    s.addresses?.sort(byIP);
    s.notReadyAddresses?.sort(byIP);
    if (s.ports?.length === 0) delete s.ports;
  }
  return subsets;
}

export class EndpointsController {
  readonly #opts: EndpointsControllerOptions;
  readonly #loop: WorkLoop;

  constructor(opts: EndpointsControllerOptions) {
    this.#opts = opts;
    this.#loop = new WorkLoop({
      queueName: 'endpoint',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'endpoint',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.services.addHandler((_t, svc) => {
      this.#loop.queue.add(keyOf(svc));
    });
    opts.pods.addHandler((_t, pod, old) => {
      for (const svc of servicesOfPod(opts.services, pod, old)) this.#loop.queue.add(keyOf(svc));
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
    const current = this.#opts.endpoints.get(key);
    if (svc === undefined) {
      if (current !== undefined) await this.#delete(namespace, name);
      return;
    }
    const selector = svc.spec?.selector;
    if (selector === undefined || Object.keys(selector).length === 0) return;
    const sel = selectorFromSet(selector);
    const pods = this.#opts.pods.list(namespace).filter((p) => sel.matches(p.metadata?.labels ?? {}));
    const { subsets, truncated } = truncateSubsets(desiredSubsets(svc, pods));
    const labels = { ...svc.metadata?.labels };
    if (svc.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    if (current === undefined) {
      const annotations = capacityAnnotations(undefined, truncated);
      await this.#opts.client.create('/v1/endpoints', namespace, {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: {
          name,
          namespace,
          ...(Object.keys(labels).length === 0 ? {} : { labels }),
          ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
        },
        ...(subsets.length === 0 ? {} : { subsets }),
      } satisfies Endpoints);
      return;
    }
    const marked = current.metadata?.annotations?.[overCapacityAnnotation] !== undefined;
    if (marked === truncated && canonicalJSON(current.subsets ?? []) === canonicalJSON(subsets)) return;
    const updated = copyOf(current);
    if (subsets.length === 0) delete updated.subsets;
    else updated.subsets = subsets;
    const annotations = capacityAnnotations(updated.metadata?.annotations, truncated);
    updated.metadata = { ...updated.metadata };
    if (Object.keys(annotations).length === 0) delete updated.metadata.annotations;
    else updated.metadata.annotations = annotations;
    await this.#opts.client.update('/v1/endpoints', updated);
  }

  async #delete(namespace: string, name: string): Promise<void> {
    try {
      await this.#opts.client.delete('/v1/endpoints', { namespace, name }, {});
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
  }
}
