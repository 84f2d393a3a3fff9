// A named API group's storage (kube's RESTStorageProvider in pkg/controlplane/apiserver and each
// pkg/registry/<group>/rest/storage_<group>.go): the group's enabled resources, version by
// version, as an APIGroupInfo, or nothing when `--runtime-config` leaves none of them on.
import type { FeatureGates } from '../../machinery/featuregate/feature-gates.js';
import type { RESTOptionsGetter } from '../../registry/generic/rest-options.js';
import type { ObjectCountMetric } from '../../registry/generic/store-definition.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import type { Authorizer } from '../../registry/rest/authorizer.js';
import type { TokenReviewOptions } from '../../registry/authentication/token-review.js';
import type { Storage } from '../../registry/rest/capabilities.js';
import type { APIResourceConfigSource } from './core.js';

/** What every resource's storage is built from. */
export interface GroupStorageOptions {
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly objectCountMetric?: ObjectCountMetric;
  /** --feature-gates (kube 1.33's defaults when unset). */
  readonly featureGates?: FeatureGates;
}

export interface StorageProviderInit extends GroupStorageOptions {
  readonly resourceConfig: APIResourceConfigSource;
  /** What the access reviews ask (allow-all until an authorization mode is configured). */
  readonly authorizer: Authorizer;
  /** How tokenreviews authenticate (absent: reviews are answered as sent). */
  readonly tokenReview?: TokenReviewOptions;
  /** Seconds events are kept (`--event-ttl`), for both Event APIs; one hour when unset. */
  readonly eventTTL?: number;
}

export interface RESTStorageProvider {
  readonly groupName: string;
  newRESTStorage(init: StorageProviderInit): Promise<APIGroupInfo | undefined>;
}

/**
 * Builds one resource: its storage under the resource name and its subresources under
 * `<resource>/<sub>` (`{ deployments, 'deployments/status', 'deployments/scale' }`).
 */
export type ResourceStorageBuilder = (
  opts: GroupStorageOptions,
) => Promise<Readonly<Record<string, Storage>>>;

export interface GroupVersionStorageSpec {
  readonly version: string;
  /** resource → its builder; a resource is built only when enabled for this version. */
  readonly resources: Readonly<Record<string, ResourceStorageBuilder>>;
}

/** A group's versions, most preferred first. */
export interface GroupStorageSpec {
  readonly group: string;
  readonly versions: readonly GroupVersionStorageSpec[];
}

/**
 * The group's APIGroupInfo with every enabled resource of every version; undefined when none is
 * enabled. Storage built before a failure is destroyed before the error is rethrown.
 */
export async function newGroupRESTStorage(
  init: StorageProviderInit,
  spec: GroupStorageSpec,
): Promise<APIGroupInfo | undefined> {
  const opts: GroupStorageOptions = {
    restOptionsGetter: init.restOptionsGetter,
    ...(init.objectCountMetric === undefined ? {} : { objectCountMetric: init.objectCountMetric }),
    ...(init.featureGates === undefined ? {} : { featureGates: init.featureGates }),
  };
  const built: Record<string, Record<string, Storage>> = {};
  try {
    for (const { version, resources } of spec.versions) {
      for (const [resource, build] of Object.entries(resources)) {
        if (!init.resourceConfig.resourceEnabled({ group: spec.group, version, resource })) continue;
        const storage = await build(opts);
        built[version] = { ...built[version], ...storage };
      }
    }
  } catch (err) {
    await destroyAll(built);
    throw err;
  }
  const versions = spec.versions.map((v) => v.version).filter((v) => built[v] !== undefined);
  if (versions.length === 0) return undefined;
  return { group: spec.group, prioritizedVersions: versions, versionedResourcesStorageMap: built };
}

/** Destroys each storage once, even when several versions share it. */
async function destroyAll(built: Readonly<Record<string, Readonly<Record<string, Storage>>>>): Promise<void> {
  const storages = new Set(Object.values(built).flatMap((m) => Object.values(m)));
  await Promise.all(
    [...storages].map(async (s) => {
      await s.destroy();
    }),
  );
}

/** A provider from a spec built per server (closures in the spec may share storage between versions). */
export function groupStorageProvider(
  group: string,
  spec: (init: StorageProviderInit) => GroupStorageSpec,
): RESTStorageProvider {
  return { groupName: group, newRESTStorage: (init) => newGroupRESTStorage(init, spec(init)) };
}
