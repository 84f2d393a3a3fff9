// The local APIServices (kube's autoregister and crdregistration controllers, and the local
// available controller): one per served built-in group version with a known priority, labelled
// `onstart`, and one per served CRD version, labelled `true`; each `service: null` and Available
// with reason Local. Managed ones no longer wanted are deleted.
import type { APIService, APIServiceCondition } from '../../api/apiregistration/v1/api-service.js';
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import {
  apiServiceName,
  autoRegisterManagedLabel,
  builtinPriority,
  customResourcePriority,
  type APIServicePriority,
} from './priorities.js';

function localAPIService(
  gv: { group: string; version: string },
  priority: APIServicePriority,
  managed: 'onstart' | 'true',
): APIService {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: apiServiceName(gv.group, gv.version), labels: { [autoRegisterManagedLabel]: managed } },
    spec: {
      service: null,
      ...(gv.group === '' ? {} : { group: gv.group }),
      version: gv.version,
      groupPriorityMinimum: priority.group,
      versionPriority: priority.version,
    },
  };
}

/** What should exist, by name: the built-in group versions first, then the CRDs' served versions. */
export function desiredLocalAPIServices(
  groups: readonly APIGroupInfo[],
  crds: readonly CustomResourceDefinition[],
): Map<string, APIService> {
  const out = new Map<string, APIService>();
  for (const g of groups)
    for (const version of g.prioritizedVersions) {
      const priority = builtinPriority(g.group, version);
      if (priority !== undefined)
        out.set(
          apiServiceName(g.group, version),
          localAPIService({ group: g.group, version }, priority, 'onstart'),
        );
    }
  for (const crd of crds)
    for (const v of crd.spec.versions) {
      const name = apiServiceName(crd.spec.group, v.name);
      if (!v.served || out.has(name)) continue;
      out.set(
        name,
        localAPIService({ group: crd.spec.group, version: v.name }, customResourcePriority, 'true'),
      );
    }
  return out;
}

/** The label that marks an APIService as kept by this server, if any. */
export const managedBy = (a: APIService): string | undefined =>
  a.metadata?.labels?.[autoRegisterManagedLabel];

/** True when `current` already is what `desired` asks (spec and the managed label). */
export function matchesDesired(current: APIService, desired: APIService): boolean {
  return (
    managedBy(current) === managedBy(desired) &&
    JSON.stringify(normalSpec(current)) === JSON.stringify(normalSpec(desired))
  );
}

function normalSpec(a: APIService): unknown {
  const s = a.spec;
  return [
    s.service,
    s.group ?? '',
    s.version ?? '',
    s.groupPriorityMinimum,
    s.versionPriority,
    s.caBundle ?? '',
    s.insecureSkipTLSVerify ?? false,
  ];
}

/** The condition every local APIService carries. */
export const localAvailable: Omit<APIServiceCondition, 'lastTransitionTime'> = {
  type: 'Available',
  status: 'True',
  reason: 'Local',
  message: 'Local APIServices are always available',
};
