// What a storage provider hands to route installation (genericapiserver.APIGroupInfo).
import type { Storage } from './capabilities.js';

export interface APIGroupInfo {
  /** '' for the legacy core group served under /api. */
  readonly group: string;
  /** Versions, most preferred first. */
  readonly prioritizedVersions: readonly string[];
  /** version → resource path (`pods`, `pods/status`) → storage. */
  readonly versionedResourcesStorageMap: Readonly<Record<string, Readonly<Record<string, Storage>>>>;
  /**
   * version → resource (`endpoints`) → the warning every request to it and its subresources
   * carries: kube's deprecation.WarningMessage of a deprecated kind, or a deprecated custom
   * resource version's warning.
   */
  readonly deprecationWarnings?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}
