// The two webhook plugins over the served storages: configurations kept by a watch, namespaces read
// as a lister would, services resolved to their endpoints. Each plugin owns its watch and client.
import type { Authorizer } from '../../../registry/rest/authorizer.js';
import { isGetter, isLister, isWatcher, type Storage } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { listerGet } from '../../../registry/rest/lister-read.js';
import { WebhookClient } from '../../../registry/webhook/client.js';
import type { AdmissionMetrics, WebhookType } from '../../metrics/admission-metrics.js';
import type { WebhookMetricsTarget } from './call-metrics.js';
import { MutatingAdmissionWebhook } from './mutating.js';
import type { NamespaceLabelsReader } from './selectors.js';
import { servedServiceResolver } from '../../../registry/webhook/served-service-resolver.js';
import { WatchedWebhookSource } from './source.js';
import { ValidatingAdmissionWebhook } from './validating.js';

function storageOf(groups: readonly APIGroupInfo[], group: string, resource: string): Storage | undefined {
  return groups.find((g) => g.group === group)?.versionedResourcesStorageMap['v1']?.[resource];
}

interface Shared {
  readonly source: WatchedWebhookSource;
  readonly client: WebhookClient;
  readonly namespaceLabels: NamespaceLabelsReader;
  readonly authorizer: Authorizer | undefined;
  readonly metrics: WebhookMetricsTarget | undefined;
}

/** What the plugins need besides the served groups. */
export interface WebhookPluginDeps {
  readonly authorizer?: Authorizer | undefined;
  /** Where the calls are counted (apiserver_admission_webhook_*). */
  readonly metrics?: AdmissionMetrics | undefined;
}

function sharedParts(
  groups: readonly APIGroupInfo[],
  r: { resource: string; deps: WebhookPluginDeps; type: WebhookType },
): Shared | undefined {
  const { resource } = r;
  const { authorizer, metrics } = r.deps;
  const configs = storageOf(groups, 'admissionregistration.k8s.io', resource);
  const namespaces = storageOf(groups, '', 'namespaces');
  if (configs === undefined || !isLister(configs) || !isWatcher(configs)) return undefined;
  if (namespaces === undefined || !isGetter(namespaces)) return undefined;
  const resolver = servedServiceResolver(groups);
  return {
    authorizer,
    metrics: metrics === undefined ? undefined : { admission: metrics, type: r.type },
    source: new WatchedWebhookSource({ storage: configs }),
    client: new WebhookClient(resolver),
    namespaceLabels: async (ctx, name) =>
      (await listerGet<Namespace>(namespaces, internalContext({ parent: ctx }), name)).metadata?.labels ?? {},
  };
}

/** MutatingAdmissionWebhook when its configurations and namespaces are served. */
export function newMutatingWebhookPlugin(
  groups: readonly APIGroupInfo[],
  deps: WebhookPluginDeps = {},
): MutatingAdmissionWebhook | undefined {
  const shared = sharedParts(groups, { resource: 'mutatingwebhookconfigurations', deps, type: 'admit' });
  return shared === undefined ? undefined : new MutatingAdmissionWebhook(shared);
}

/** ValidatingAdmissionWebhook when its configurations and namespaces are served. */
export function newValidatingWebhookPlugin(
  groups: readonly APIGroupInfo[],
  deps: WebhookPluginDeps = {},
): ValidatingAdmissionWebhook | undefined {
  const shared = sharedParts(groups, {
    resource: 'validatingwebhookconfigurations',
    deps,
    type: 'validating',
  });
  return shared === undefined ? undefined : new ValidatingAdmissionWebhook(shared);
}
