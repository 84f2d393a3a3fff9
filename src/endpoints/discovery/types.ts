// Discovery wire shapes (metav1 APIResource/APIResourceList/APIGroup/APIVersions and
// apidiscovery.k8s.io v2 APIGroupDiscovery).
import type { APIGroup as MetaAPIGroup, GroupVersionForDiscovery } from '../../api/meta/v1/discovery.js';

export type { APIResource, GroupVersionForDiscovery } from '../../api/meta/v1/discovery.js';

/** metav1.APIGroup as discovery serves it: the preferred version is always set. */
export interface APIGroup extends MetaAPIGroup {
  preferredVersion: GroupVersionForDiscovery;
}

export interface GroupVersionKindRef {
  group: string;
  version: string;
  kind: string;
}

export interface APISubresourceDiscovery {
  subresource: string;
  responseKind: GroupVersionKindRef;
  verbs: string[];
}

export interface APIResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKindRef;
  scope: 'Cluster' | 'Namespaced';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

export interface APIVersionDiscovery {
  version: string;
  resources: APIResourceDiscovery[];
  freshness: 'Current' | 'Stale';
}

export interface APIGroupDiscovery {
  metadata: { name?: string; creationTimestamp: null };
  versions: APIVersionDiscovery[];
}
