// Which group versions and resources the server serves: ResourceConfig
// (k8s.io/apiserver/pkg/server/storage/resource_config.go), DefaultAPIResourceConfigSource
// (pkg/controlplane/instance.go) and `--runtime-config` (pkg/controlplane/apiserver/options and
// k8s.io/apiserver/pkg/server/resourceconfig/helpers.go).
import type { GroupVersion, GroupVersionResource } from '../machinery/schema/group-resource.js';

const gvKey = (gv: GroupVersion): string => `${gv.group}/${gv.version}`;
const gvrKey = (gvr: GroupVersionResource): string => `${gvr.group}/${gvr.version}/${gvr.resource}`;
const gv = (group: string, version: string): GroupVersion => ({ group, version });
function fromGvKey(key: string): GroupVersion {
  const i = key.indexOf('/');
  return gv(key.slice(0, i), key.slice(i + 1));
}

/** serverstorage.ResourceConfig: version switches, and per-resource switches that take priority. */
export class ResourceConfig {
  readonly #versions = new Map<string, boolean>();
  readonly #resources = new Map<string, { gvr: GroupVersionResource; enabled: boolean }>();

  enableVersions(...versions: GroupVersion[]): void {
    for (const v of versions) this.#setVersion(v, true);
  }

  disableVersions(...versions: GroupVersion[]): void {
    for (const v of versions) this.#setVersion(v, false);
  }

  /** Switches every known version the matcher picks, as `api/all`, `api/ga`, `api/beta`, `api/alpha` do. */
  setMatchingVersions(matcher: (v: GroupVersion) => boolean, enabled: boolean): void {
    for (const key of [...this.#versions.keys()]) {
      const v = fromGvKey(key);
      if (matcher(v)) this.#setVersion(v, enabled);
    }
  }

  enableResources(...resources: GroupVersionResource[]): void {
    for (const r of resources) this.#resources.set(gvrKey(r), { gvr: r, enabled: true });
  }

  disableResources(...resources: GroupVersionResource[]): void {
    for (const r of resources) this.#resources.set(gvrKey(r), { gvr: r, enabled: false });
  }

  versionEnabled(version: GroupVersion): boolean {
    return this.#versions.get(gvKey(version)) ?? false;
  }

  /** An explicit resource switch wins over its version's. */
  resourceEnabled(resource: GroupVersionResource): boolean {
    const explicit = this.#resources.get(gvrKey(resource));
    if (explicit !== undefined) return explicit.enabled;
    return this.versionEnabled(resource);
  }

  anyResourceForGroupEnabled(group: string): boolean {
    for (const [key, enabled] of this.#versions) if (enabled && fromGvKey(key).group === group) return true;
    for (const { gvr } of this.#resources.values())
      if (gvr.group === group && this.resourceEnabled(gvr)) return true;
    return false;
  }

  /** Every group version the config has an opinion on, enabled or not. */
  groupVersions(): GroupVersion[] {
    return [...this.#versions.keys()].map(fromGvKey);
  }

  clone(): ResourceConfig {
    const copy = new ResourceConfig();
    for (const [key, enabled] of this.#versions) copy.#versions.set(key, enabled);
    for (const [key, value] of this.#resources) copy.#resources.set(key, value);
    return copy;
  }

  // A preference about a version overrides the earlier preferences about its resources.
  #setVersion(version: GroupVersion, enabled: boolean): void {
    this.#versions.set(gvKey(version), enabled);
    for (const [key, { gvr }] of [...this.#resources]) {
      if (gvr.group === version.group && gvr.version === version.version) this.#resources.delete(key);
    }
  }
}

const stableVersions: readonly GroupVersion[] = [
  gv('admissionregistration.k8s.io', 'v1'),
  gv('', 'v1'),
  gv('apps', 'v1'),
  gv('authentication.k8s.io', 'v1'),
  gv('authorization.k8s.io', 'v1'),
  gv('autoscaling', 'v1'),
  gv('autoscaling', 'v2'),
  gv('batch', 'v1'),
  gv('certificates.k8s.io', 'v1'),
  gv('coordination.k8s.io', 'v1'),
  gv('discovery.k8s.io', 'v1'),
  gv('events.k8s.io', 'v1'),
  gv('networking.k8s.io', 'v1'),
  gv('node.k8s.io', 'v1'),
  gv('policy', 'v1'),
  gv('rbac.authorization.k8s.io', 'v1'),
  gv('storage.k8s.io', 'v1'),
  gv('scheduling.k8s.io', 'v1'),
  gv('flowcontrol.apiserver.k8s.io', 'v1'),
  // kube serves these from its apiextensions and aggregator servers; Capstan is one server.
  gv('apiextensions.k8s.io', 'v1'),
  gv('apiregistration.k8s.io', 'v1'),
];

const legacyBetaResources: readonly GroupVersionResource[] = [
  { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'flowschemas' },
  { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'prioritylevelconfigurations' },
];

const betaVersions: readonly GroupVersion[] = [
  gv('admissionregistration.k8s.io', 'v1beta1'),
  gv('authentication.k8s.io', 'v1beta1'),
  gv('storage.k8s.io', 'v1beta1'),
  gv('flowcontrol.apiserver.k8s.io', 'v1beta1'),
  gv('flowcontrol.apiserver.k8s.io', 'v1beta2'),
  gv('flowcontrol.apiserver.k8s.io', 'v1beta3'),
];

const alphaVersions: readonly GroupVersion[] = [
  gv('admissionregistration.k8s.io', 'v1alpha1'),
  gv('internal.apiserver.k8s.io', 'v1alpha1'),
  gv('authentication.k8s.io', 'v1alpha1'),
  gv('resource.k8s.io', 'v1alpha2'),
  gv('certificates.k8s.io', 'v1alpha1'),
  gv('networking.k8s.io', 'v1alpha1'),
  gv('storage.k8s.io', 'v1alpha1'),
  gv('storagemigration.k8s.io', 'v1alpha1'),
];

/** Stable group versions on, beta and alpha off, and the beta resources kube still serves by default. */
export function defaultAPIResourceConfigSource(): ResourceConfig {
  const config = new ResourceConfig();
  config.enableVersions(...stableVersions);
  config.disableVersions(...betaVersions);
  config.disableVersions(...alphaVersions);
  config.enableResources(...legacyBetaResources);
  return config;
}

/** resourceconfig.GroupVersionRegistry: what the server knows, whether enabled or not. */
export interface GroupVersionRegistry {
  isGroupRegistered(group: string): boolean;
  isVersionRegistered(version: GroupVersion): boolean;
}

/** The registry of every group version a config mentions. */
export function registryOf(config: ResourceConfig): GroupVersionRegistry {
  const versions = new Set(config.groupVersions().map(gvKey));
  const groups = new Set(config.groupVersions().map((v) => v.group));
  return { isGroupRegistered: (g) => groups.has(g), isVersionRegistered: (v) => versions.has(gvKey(v)) };
}

const runtimeConfigMatchers: Readonly<Record<string, (v: GroupVersion) => boolean>> = {
  'api/all': () => true,
  'api/ga': (v) => /^v\d+$/.test(v.version),
  'api/beta': (v) => /^v\d+beta\d+$/.test(v.version),
  'api/alpha': (v) => /^v\d+alpha\d+$/.test(v.version),
};
const matcherOrder = ['api/all', 'api/ga', 'api/beta', 'api/alpha'] as const;

/**
 * `--runtime-config` values (cliflag.ConfigurationMap): `key=value` pairs joined by commas, a bare
 * key meaning "". The flag may be given several times; later keys win.
 */
export function parseRuntimeConfig(values: string | readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const value of typeof values === 'string' ? [values] : values) {
    for (const part of value.split(',')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      if (eq < 0) out.set(part.trim(), '');
      else out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
  }
  return out;
}

/** ConvertLegacyGroup: `api/legacy` is dropped; `v1…` and `api/v1…` name the core group as `/v1…`. */
export function convertLegacyGroup(overrides: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of overrides) {
    if (key === 'api/legacy') continue;
    if (key === 'v1' || key.startsWith('v1/')) out.set(`/${key}`, value);
    else if (key === 'api/v1') out.set('/v1', value);
    else if (key.startsWith('api/v1/') && key.split('/').length === 3)
      out.set(`/v1/${key.split('/')[2] ?? ''}`, value);
    else out.set(key, value);
  }
  return out;
}

/** The group of a `group/version[/resource]` key, or an error for any other shape (resourceconfig.ParseGroups). */
function groupOfKey(key: string): string {
  const tokens = key.split('/');
  if (tokens.length !== 2 && tokens.length !== 3) throw new Error(`runtime-config invalid key ${key}`);
  return tokens[0] ?? '';
}

/** APIEnablementOptions.Validate: keys must be well formed and name groups the server has. */
export function validateRuntimeConfig(
  raw: ReadonlyMap<string, string>,
  registry: GroupVersionRegistry,
): Error[] {
  const overrides = convertLegacyGroup(raw);
  if (overrides.get('api/all') === 'false' && overrides.size === 1) {
    return [new Error('invalid key with only api/all=false')];
  }
  const unknown: string[] = [];
  for (const key of overrides.keys()) {
    if (key in runtimeConfigMatchers) continue;
    let group: string;
    try {
      group = groupOfKey(key);
    } catch (err) {
      return [err as Error];
    }
    if (!registry.isGroupRegistered(group)) unknown.push(group);
  }
  return unknown.length > 0 ? [new Error(`unknown api groups ${unknown.join(',')}`)] : [];
}

/** strconv.ParseBool, with getRuntimeConfigValue's error text; "" means true. */
function runtimeConfigValue(key: string, value: string): boolean {
  if (value === '') return true;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new Error(
    `invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`,
  );
}

interface Preference {
  readonly version: GroupVersion;
  readonly resource?: string;
  readonly enabled: boolean;
}

function preferenceOf(key: string, value: string, registry: GroupVersionRegistry): Preference | undefined {
  const tokens = key.split('/');
  if (tokens.length < 2 || tokens.length > 3) return undefined;
  const version = gv(tokens[0] ?? '', tokens[1] ?? '');
  // Groups the server does not have are left to validation; versions of known groups must exist.
  if (!registry.isGroupRegistered(version.group)) return undefined;
  if (!registry.isVersionRegistered(version)) {
    throw new Error(
      `group version ${version.group === '' ? version.version : gvKey(version)} that has not been registered`,
    );
  }
  const enabled = runtimeConfigValue(key, value);
  const resource = tokens[2];
  if (resource === undefined) return { version, enabled };
  if (resource.toLowerCase() !== resource) {
    throw new Error(
      `invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(resource)}`,
    );
  }
  return { version, resource, enabled };
}

/**
 * MergeAPIResourceConfigs: the defaults with `api/all`-style switches first, then version keys,
 * then resource keys, each overriding the last. Throws kube's errors for bad keys and values.
 */
export function mergeAPIResourceConfigs(
  defaults: ResourceConfig,
  overrides: ReadonlyMap<string, string>,
  registry: GroupVersionRegistry = registryOf(defaults),
): ResourceConfig {
  const config = defaults.clone();
  const converted = convertLegacyGroup(overrides);
  for (const flag of matcherOrder) {
    const value = converted.get(flag);
    if (value === undefined) continue;
    if (value !== 'true' && value !== 'false') throw new Error(`invalid value ${flag}=${value}`);
    config.setMatchingVersions(runtimeConfigMatchers[flag] ?? (() => false), value === 'true');
  }
  const prefs: Preference[] = [];
  for (const [key, value] of converted) {
    if (key in runtimeConfigMatchers) continue;
    const pref = preferenceOf(key, value, registry);
    if (pref !== undefined) prefs.push(pref);
  }
  for (const p of prefs) {
    if (p.resource !== undefined) continue;
    if (p.enabled) config.enableVersions(p.version);
    else config.disableVersions(p.version);
  }
  for (const p of prefs) {
    if (p.resource === undefined) continue;
    const gvr = { ...p.version, resource: p.resource };
    if (p.enabled) config.enableResources(gvr);
    else config.disableResources(gvr);
  }
  return config;
}
