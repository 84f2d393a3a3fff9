// The control plane's part in serving custom resources: the dynamic routes for the API handler, the
// post-start hook that lists and watches the CRDs (ready waits for the first list, kube's
// crd-informer-synced), the naming controller, the client of conversion webhooks, and the close.
// Nothing is served when apiextensions.k8s.io is off.
import type { AdmissionChain } from '../../admission/chain.js';
import type { Scheme } from '../../api/scheme.js';
import type { RESTOptionsGetter } from '../../registry/generic/rest-options.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { isLister, isUpdater, isWatcher } from '../../registry/rest/capabilities.js';
import { WebhookClient } from '../../registry/webhook/client.js';
import { servedServiceResolver } from '../../registry/webhook/served-service-resolver.js';
import type { PostStartHook } from '../../server/lifecycle/hooks.js';
import type { Logger } from '../../server/logging/logger.js';
import type { WorkqueueMetricsProvider } from '../../server/metrics/workqueue-metrics.js';
import { CRDNamingController, isNamesReconsiderer } from './crd-naming-controller.js';
import { CustomResourceRoutes, serveCustomResourceDefinitions } from './crd-routes.js';
import { stopReason } from '../../machinery/errors/stop-reason.js';

export const apiextensionsControllersHookName = 'start-apiextensions-controllers';

export interface CustomResourceServing {
  readonly routes: CustomResourceRoutes;
  readonly postStartHooks: Record<string, PostStartHook>;
  close(): Promise<void>;
}

export function customResourceServing(opts: {
  readonly groups: readonly APIGroupInfo[];
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly scheme: Scheme;
  readonly admission: AdmissionChain;
  readonly logger: Logger;
  /** Where the naming controller's work queue metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}): CustomResourceServing {
  const v1 = opts.groups.find((g) => g.group === 'apiextensions.k8s.io')?.versionedResourcesStorageMap['v1'];
  const source = v1?.['customresourcedefinitions'];
  const status = v1?.['customresourcedefinitions/status'];
  const webhookClient = new WebhookClient(servedServiceResolver(opts.groups));
  const routes = new CustomResourceRoutes({
    ...opts,
    webhookClient,
    ...(status !== undefined && isUpdater(status) ? { crdStatus: status } : {}),
  });
  const abort = new AbortController();
  let stopped: Promise<void> = Promise.resolve();
  let naming: CRDNamingController | undefined;
  const hooks: Record<string, PostStartHook> = {};
  if (source !== undefined && isLister(source) && isWatcher(source)) {
    hooks[apiextensionsControllersHookName] = async () => {
      if (isNamesReconsiderer(source) && !abort.signal.aborted) {
        naming = new CRDNamingController({
          source,
          crds: source,
          logger: opts.logger,
          workqueueMetrics: opts.workqueueMetrics,
        });
        naming.run();
      }
      const serving = serveCustomResourceDefinitions(routes, {
        source,
        signal: abort.signal,
        logger: opts.logger,
      });
      stopped = serving.stopped;
      await serving.synced;
    };
  }
  return {
    routes,
    postStartHooks: hooks,
    close: async () => {
      abort.abort(stopReason);
      await naming?.close();
      await stopped;
      await routes.close();
      webhookClient.close();
    },
  };
}
