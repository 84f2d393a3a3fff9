// The two webhook plugins over the served storages: configurations kept by a watch, namespaces read
// as a lister would, services resolved to their endpoints. Each plugin owns its watch and client.
import type { Authorizer } from '../../../registry/rest/authorizer.js';
import { isGetter, isLister, isWatcher, type Storage } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { listerGet } from '../../../registry/rest/lister-read.js';
import { WebhookClient } from '../../../registry/webhook/client.js';
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
}

function sharedParts(
  groups: readonly APIGroupInfo[],
  r: { resource: string; authorizer: Authorizer | undefined },
): Shared | undefined {
  const { resource, authorizer } = r;
  const configs = storageOf(groups, 'admissionregistration.k8s.io', resource);
  const namespaces = storageOf(groups, '', 'namespaces');
  if (configs === undefined || !isLister(configs) || !isWatcher(configs)) return undefined;
  if (namespaces === undefined || !isGetter(namespaces)) return undefined;
  const resolver = servedServiceResolver(groups);
  return {
    authorizer,
    source: new WatchedWebhookSource({ storage: configs }),
    client: new WebhookClient(resolver),
    namespaceLabels: async (ctx, name) =>
      (await listerGet<Namespace>(namespaces, internalContext({ parent: ctx }), name)).metadata?.labels ?? {},
  };
}

/** MutatingAdmissionWebhook when its configurations and namespaces are served. */
export function newMutatingWebhookPlugin(
  groups: readonly APIGroupInfo[],
  authorizer?: Authorizer,
): MutatingAdmissionWebhook | undefined {
  const shared = sharedParts(groups, { resource: 'mutatingwebhookconfigurations', authorizer });
  return shared === undefined ? undefined : new MutatingAdmissionWebhook(shared);
}

/** ValidatingAdmissionWebhook when its configurations and namespaces are served. */
export function newValidatingWebhookPlugin(
  groups: readonly APIGroupInfo[],
  authorizer?: Authorizer,
): ValidatingAdmissionWebhook | undefined {
  const shared = sharedParts(groups, { resource: 'validatingwebhookconfigurations', authorizer });
  return shared === undefined ? undefined : new ValidatingAdmissionWebhook(shared);
}
