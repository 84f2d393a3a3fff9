// The plugin over the served groups: the policy and binding stores it watches, the status
// subresource it writes type checking to, namespaces, and param kinds found among the served
// built-in resources (custom resources as params are not looked up yet).
import type { ParamKind } from '../../../../api/admissionregistration/v1/policy.js';
import { builtinScheme } from '../../../../api/builtin-scheme.js';
import { parseAPIVersion } from '../../../../api/scheme.js';
import type { GroupVersionResource } from '../../../../machinery/schema/group-resource.js';
import type { APIGroupInfo } from '../../../../registry/rest/api-group-info.js';
import {
  isGetter,
  isLister,
  isScoper,
  isUpdater,
  isWatcher,
  type Storage,
} from '../../../../registry/rest/capabilities.js';
import type { ParamStore } from '../generic/params.js';
import { ValidatingAdmissionPolicyPlugin, type ValidatingAdmissionPolicyOptions } from './plugin.js';
import { schemeTypeResolver } from './scheme-types.js';
import type { TypeResolver } from './type-checking.js';

const group = 'admissionregistration.k8s.io';

function storageOf(groups: readonly APIGroupInfo[], g: string, resource: string): Storage | undefined {
  return groups.find((x) => x.group === g)?.versionedResourcesStorageMap['v1']?.[resource];
}

const isNamespaced = (s: Storage): boolean => isScoper(s) && s.namespaceScoped();

/** The served resource whose objects are of the paramKind. */
function paramStoreLookup(groups: readonly APIGroupInfo[]): (pk: ParamKind) => ParamStore | undefined {
  const cache = new Map<string, ParamStore | undefined>();
  return (pk) => {
    const key = `${pk.apiVersion ?? ''}/${pk.kind ?? ''}`;
    if (cache.has(key)) return cache.get(key);
    let found: ParamStore | undefined;
    const gv = parseAPIVersion(pk.apiVersion ?? '');
    const resources =
      gv === undefined
        ? undefined
        : groups.find((g) => g.group === gv.group)?.versionedResourcesStorageMap[gv.version];
    for (const [path, storage] of Object.entries(resources ?? {})) {
      if (path.includes('/') || storage.newObject().kind !== pk.kind) continue;
      if (isGetter(storage) && isLister(storage)) found = { storage, namespaced: isNamespaced(storage) };
      break;
    }
    cache.set(key, found);
    return found;
  };
}

/** The same group and resource in the group's other served versions. */
function equivalents(groups: readonly APIGroupInfo[]): (gvr: GroupVersionResource) => GroupVersionResource[] {
  return (gvr) => {
    const info = groups.find((g) => g.group === gvr.group);
    if (info === undefined) return [];
    return Object.entries(info.versionedResourcesStorageMap)
      .filter(([version, resources]) => version !== gvr.version && resources[gvr.resource] !== undefined)
      .map(([version]) => ({ group: gvr.group, version, resource: gvr.resource }));
  };
}

/** A resolver that builds the Scheme on first use (type checking runs only when policies change). */
function lazyTypes(groups: readonly APIGroupInfo[]): TypeResolver {
  let resolved: TypeResolver | undefined;
  const get = (): TypeResolver => (resolved ??= schemeTypeResolver(builtinScheme(), groups));
  return {
    kindsFor: (gvr) => get().kindsFor(gvr),
    schemaOf: (apiVersion, kind) => get().schemaOf(apiVersion, kind),
  };
}

/** The plugin, or undefined when the policy kinds are not served. */
export function newValidatingAdmissionPolicyPlugin(
  groups: readonly APIGroupInfo[],
  extra: Pick<ValidatingAdmissionPolicyOptions, 'onAuditAnnotation' | 'authorizer'> = {},
): ValidatingAdmissionPolicyPlugin | undefined {
  const policies = storageOf(groups, group, 'validatingadmissionpolicies');
  const bindings = storageOf(groups, group, 'validatingadmissionpolicybindings');
  if (policies === undefined || bindings === undefined) return undefined;
  if (!isLister(policies) || !isWatcher(policies) || !isLister(bindings) || !isWatcher(bindings))
    return undefined;
  const status = storageOf(groups, group, 'validatingadmissionpolicies/status');
  const namespaces = storageOf(groups, '', 'namespaces');
  return new ValidatingAdmissionPolicyPlugin({
    policies,
    bindings,
    params: paramStoreLookup(groups),
    equivalentResources: equivalents(groups),
    types: lazyTypes(groups),
    ...(status !== undefined && isUpdater(status) ? { policyStatus: status } : {}),
    ...(namespaces !== undefined && isGetter(namespaces) ? { namespaces } : {}),
    ...extra,
  });
}
