// Where and how each group-resource is stored: DefaultStorageFactory
// (k8s.io/apiserver/pkg/server/storage/storage_factory.go) and the kube-apiserver setup of it
// (NewStorageFactoryConfig / completedStorageFactoryConfig.New in pkg/kubeapiserver): special key
// prefixes, cohabitating resources, `--etcd-servers-overrides`, codecs and transformers.
import type { Scheme } from '../api/scheme.js';
import type { GroupResource } from '../machinery/schema/group-resource.js';
import type { StorageFactory } from '../registry/generic/rest-options.js';
import {
  forResource,
  type StorageConfig,
  type StorageConfigForResource,
} from '../storage/backend-factory/config.js';
import { builtinJSONCodec, jsonCodec, type Codec } from '../storage/codec.js';
import type { ResourceTransformers } from '../storage/value/resource-transformers.js';
import type { Transformer } from '../storage/value/transformer.js';

/** kube's SpecialDefaultResourcePrefixes: resources stored under names other than their own. */
export const specialDefaultResourcePrefixes: ReadonlyMap<string, string> = new Map([
  ['/replicationcontrollers', 'controllers'],
  ['/endpoints', 'services/endpoints'],
  ['/nodes', 'minions'],
  ['/services', 'services/specs'],
  ['extensions/ingresses', 'ingress'],
  ['networking.k8s.io/ingresses', 'ingress'],
  // kube-aggregator's own storage keys APIServices by group and resource.
  ['apiregistration.k8s.io/apiservices', 'apiregistration.k8s.io/apiservices'],
]);

/** The cohabitations kube-apiserver sets up: the first enabled group of each set stores them all. */
export const cohabitatingResources: readonly (readonly GroupResource[])[] = [
  [gr('networking.k8s.io', 'networkpolicies'), gr('extensions', 'networkpolicies')],
  [gr('apps', 'deployments'), gr('extensions', 'deployments')],
  [gr('apps', 'daemonsets'), gr('extensions', 'daemonsets')],
  [gr('apps', 'replicasets'), gr('extensions', 'replicasets')],
  [gr('', 'events'), gr('events.k8s.io', 'events')],
  [gr('', 'replicationcontrollers'), gr('extensions', 'replicationcontrollers')],
  [gr('policy', 'podsecuritypolicies'), gr('extensions', 'podsecuritypolicies')],
  [gr('networking.k8s.io', 'ingresses'), gr('extensions', 'ingresses')],
];

function gr(group: string, resource: string): GroupResource {
  return { group, resource };
}
const key = (r: GroupResource): string => `${r.group}/${r.resource}`;
const allResourcesAlias = (r: GroupResource): GroupResource => gr(r.group, '*');

/**
 * Media types the storage can encode (kube also has YAML, protobuf and CBOR): with a scheme, its
 * built-in kinds are stored in their Go structs' member order.
 */
function codecsFor(scheme: Scheme | undefined): ReadonlyMap<string, Codec> {
  return new Map([['application/json', scheme === undefined ? jsonCodec : builtinJSONCodec(scheme)]]);
}

interface Overrides {
  etcdLocation?: readonly string[];
  etcdPrefix?: string;
  etcdResourcePrefix?: string;
  mediaType?: string;
  transformer?: Transformer;
  cohabitatingResources?: readonly GroupResource[];
  disablePaging?: boolean;
}

/** What decides whether a group is served (for cohabitation); ResourceConfig implements it. */
export interface APIResourceConfigSource {
  anyResourceForGroupEnabled(group: string): boolean;
}

export interface DefaultStorageFactoryInit {
  readonly storageConfig: StorageConfig;
  /** `--storage-media-type`; application/json by default. */
  readonly defaultMediaType?: string;
  readonly resourceConfig: APIResourceConfigSource;
  readonly defaultResourcePrefixes?: ReadonlyMap<string, string>;
  /** The built-in kinds, whose member order the codec follows. */
  readonly scheme?: Scheme;
}

/** A storage server the factory will talk to (for health and componentstatuses). */
export interface StorageBackendInfo {
  readonly server: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  readonly trustedCAFile?: string;
}

export class DefaultStorageFactory implements StorageFactory {
  readonly #config: StorageConfig;
  readonly #defaultMediaType: string;
  readonly #resourceConfig: APIResourceConfigSource;
  readonly #prefixes: ReadonlyMap<string, string>;
  readonly #overrides = new Map<string, Overrides>();
  readonly #codecs: ReadonlyMap<string, Codec>;
  #resourceTransformers: ResourceTransformers | undefined;

  constructor(init: DefaultStorageFactoryInit) {
    this.#config = { ...init.storageConfig, paging: init.storageConfig.paging ?? true };
    this.#defaultMediaType =
      init.defaultMediaType === undefined || init.defaultMediaType === ''
        ? 'application/json'
        : init.defaultMediaType;
    this.#resourceConfig = init.resourceConfig;
    this.#prefixes = init.defaultResourcePrefixes ?? new Map();
    this.#codecs = codecsFor(init.scheme);
  }

  /** Sends the resource to other etcd servers (`--etcd-servers-overrides`). */
  setEtcdLocation(resource: GroupResource, servers: readonly string[]): void {
    this.#override(resource).etcdLocation = [...servers];
  }

  /** Stores the resource under another root than `--etcd-prefix`. */
  setEtcdPrefix(resource: GroupResource, prefix: string): void {
    this.#override(resource).etcdPrefix = prefix;
  }

  /** Stores the resource under another key prefix than its name. */
  setResourceEtcdPrefix(resource: GroupResource, prefix: string): void {
    this.#override(resource).etcdResourcePrefix = prefix;
  }

  setSerializer(resource: GroupResource, mediaType: string): void {
    this.#override(resource).mediaType = mediaType;
  }

  /** The value transformer (encryption at rest) for the resource; `*` resources or groups apply widely. */
  setTransformer(resource: GroupResource, transformer: Transformer): void {
    this.#override(resource).transformer = transformer;
  }

  /**
   * Encryption at rest (kube's StorageFactory.ResourceTransformers): asked for every resource that
   * has no transformer of its own, so a reloaded config can cover resources it did not name at start.
   */
  setResourceTransformers(transformers: ResourceTransformers): void {
    this.#resourceTransformers = transformers;
  }

  setDisableAPIListChunking(resource: GroupResource): void {
    this.#override(resource).disablePaging = true;
  }

  /** Links resources stored together; the order is the priority for where they live. */
  addCohabitatingResources(...resources: GroupResource[]): void {
    for (const r of resources) this.#override(r).cohabitatingResources = resources;
  }

  newConfig(resource: GroupResource): StorageConfigForResource {
    const chosen = this.#storageGroupResource(resource);
    let config: StorageConfig = { ...this.#config, transport: { ...this.#config.transport } };
    let mediaType = this.#defaultMediaType;
    for (const o of [this.#overrides.get(key(allResourcesAlias(chosen))), this.#overrides.get(key(chosen))]) {
      if (o === undefined) continue;
      if (o.etcdLocation !== undefined && o.etcdLocation.length > 0) {
        config = { ...config, transport: { ...config.transport, serverList: o.etcdLocation } };
      }
      if (o.etcdPrefix !== undefined && o.etcdPrefix !== '') config = { ...config, prefix: o.etcdPrefix };
      if (o.mediaType !== undefined && o.mediaType !== '') mediaType = o.mediaType;
      if (o.disablePaging === true) config = { ...config, paging: false };
    }
    const transformer = this.#transformerFor(resource);
    return forResource(
      { ...config, codec: codecFor(this.#codecs, mediaType), ...(transformer !== undefined ? { transformer } : {}) },
      resource,
    );
  }

  /** The key prefix below the path prefix: an override, kube's special name, or the lowercase resource. */
  resourcePrefix(resource: GroupResource): string {
    const chosen = this.#storageGroupResource(resource);
    let prefix = this.#prefixes.get(key(chosen)) ?? '';
    const group = this.#overrides.get(key(allResourcesAlias(chosen)))?.etcdResourcePrefix ?? '';
    if (group !== '') prefix = group;
    const exact = this.#overrides.get(key(chosen))?.etcdResourcePrefix ?? '';
    if (exact !== '') prefix = exact;
    return prefix === '' ? chosen.resource.toLowerCase() : prefix;
  }

  /** Every distinct storage server, sorted (kube's Backends). */
  backends(): StorageBackendInfo[] {
    const servers = new Set(this.#config.transport.serverList ?? []);
    for (const o of this.#overrides.values()) for (const s of o.etcdLocation ?? []) servers.add(s);
    const t = this.#config.transport;
    return [...servers].sort().map((server) => ({
      server,
      ...(t.certFile !== undefined ? { certFile: t.certFile } : {}),
      ...(t.keyFile !== undefined ? { keyFile: t.keyFile } : {}),
      ...(t.trustedCAFile !== undefined ? { trustedCAFile: t.trustedCAFile } : {}),
    }));
  }

  /** The first cohabitating resource whose group is served stores the resource. */
  #storageGroupResource(resource: GroupResource): GroupResource {
    for (const candidate of this.#overrides.get(key(resource))?.cohabitatingResources ?? []) {
      if (this.#resourceConfig.anyResourceForGroupEnabled(candidate.group)) return candidate;
    }
    return resource;
  }

  #transformerFor(resource: GroupResource): Transformer | undefined {
    for (const k of [key(resource), key(allResourcesAlias(resource)), key(gr('*', '*'))]) {
      const t = this.#overrides.get(k)?.transformer;
      if (t !== undefined) return t;
    }
    return this.#resourceTransformers?.transformerForResource(resource);
  }

  #override(resource: GroupResource): Overrides {
    let o = this.#overrides.get(key(resource));
    if (o === undefined) {
      o = {};
      this.#overrides.set(key(resource), o);
    }
    return o;
  }
}

function codecFor(codecs: ReadonlyMap<string, Codec>, mediaType: string): Codec {
  const base = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  const codec = codecs.get(base);
  if (codec === undefined) {
    throw new Error(
      `unable to find serializer for ${JSON.stringify(base)}, supported media types: [${[...codecs.keys()].join(' ')}]`,
    );
  }
  return codec;
}

const overrideFormat =
  '--etcd-servers-overrides invalid, must be of format: group/resource#servers, where servers are URLs, semicolon separated';

/** EtcdOptions.Validate for `--etcd-servers-overrides`. */
export function validateEtcdServersOverrides(overrides: readonly string[]): Error[] {
  const errs: Error[] = [];
  for (const o of overrides) {
    const tokens = o.split('#');
    if (tokens.length !== 2 || (tokens[0] ?? '').split('/').length !== 2)
      errs.push(new Error(overrideFormat));
  }
  return errs;
}

/** One `group/resource#url;url` entry; the core group is written with an empty group (`/pods#...`). */
export function parseEtcdServersOverride(override: string): { resource: GroupResource; servers: string[] } {
  const [what = '', servers = ''] = override.split('#');
  const [group = '', resource = ''] = what.split('/');
  return { resource: gr(group, resource), servers: servers.split(';') };
}

export interface StorageFactoryConfig {
  readonly storageConfig: StorageConfig;
  readonly defaultStorageMediaType?: string;
  readonly apiResourceConfig: APIResourceConfigSource;
  readonly etcdServersOverrides?: readonly string[];
  readonly scheme?: Scheme;
}

/** completedStorageFactoryConfig.New: kube's prefixes and cohabitations, then the server overrides. */
export function newStorageFactory(config: StorageFactoryConfig): DefaultStorageFactory {
  const errs = validateEtcdServersOverrides(config.etcdServersOverrides ?? []);
  if (errs.length > 0) throw errs[0] as Error;
  const factory = new DefaultStorageFactory({
    storageConfig: config.storageConfig,
    resourceConfig: config.apiResourceConfig,
    defaultResourcePrefixes: specialDefaultResourcePrefixes,
    ...(config.scheme !== undefined ? { scheme: config.scheme } : {}),
    ...(config.defaultStorageMediaType !== undefined
      ? { defaultMediaType: config.defaultStorageMediaType }
      : {}),
  });
  for (const set of cohabitatingResources) factory.addCohabitatingResources(...set);
  for (const o of config.etcdServersOverrides ?? []) {
    const { resource, servers } = parseEtcdServersOverride(o);
    factory.setEtcdLocation(resource, servers);
  }
  return factory;
}
