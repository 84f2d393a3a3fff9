// Real storages (in-memory SQLite) grouped as the control plane serves them, behind the default
// admission chain, for the plugin tests: `create` goes through admission, `raw` does not.
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/meta.js';
import { testContext } from '../../registry/generic/testing/widgets.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { isCreater, isUpdater, type Storage, type UpdateRequest } from '../../registry/rest/capabilities.js';
import { admittedGroups } from '../admitted-storage.js';
import type { AdmissionChain } from '../chain.js';
import { defaultAdmissionChain, type AdmissionPluginSelection } from '../default-chain.js';

/** group → resource → storage (all v1). */
export type GroupStorages = Readonly<Record<string, Readonly<Record<string, Storage>>>>;

export interface AdmittedGroups {
  readonly chain: AdmissionChain;
  /** Creates through admission; namespace '' for cluster-scoped resources. */
  create<T extends KubeObject>(
    at: { group: string; resource: string; namespace?: string },
    obj: T,
  ): Promise<T>;
  /** Updates (PUT) through admission. */
  update<T extends KubeObject>(
    at: { group: string; resource: string; namespace?: string },
    obj: T,
  ): Promise<T>;
  /** Creates past admission. */
  createRaw<T extends KubeObject>(
    at: { group: string; resource: string; namespace?: string },
    obj: T,
  ): Promise<T>;
}

export function admittedGroupsOf(
  storages: GroupStorages,
  selection: AdmissionPluginSelection = {},
): AdmittedGroups {
  const raw: APIGroupInfo[] = Object.entries(storages).map(([group, resources]) => ({
    group,
    prioritizedVersions: ['v1'],
    versionedResourcesStorageMap: { v1: { ...resources } },
  }));
  const chain = defaultAdmissionChain(raw, selection);
  const served = admittedGroups(raw, chain);
  const find = (groups: readonly APIGroupInfo[], group: string, resource: string): Storage => {
    const s = groups.find((g) => g.group === group)?.versionedResourcesStorageMap['v1']?.[resource];
    assert.ok(s !== undefined, `${resource}.${group} is served`);
    return s;
  };
  const createIn = async <T extends KubeObject>(
    groups: readonly APIGroupInfo[],
    at: { group: string; resource: string; namespace?: string },
    obj: T,
  ): Promise<T> => {
    const s = find(groups, at.group, at.resource);
    assert.ok(isCreater(s));
    return (await s.create(testContext(at.namespace ?? ''), obj, { options: {} })) as T;
  };
  return {
    chain,
    create: (at, obj) => createIn(served, at, obj),
    createRaw: (at, obj) => createIn(raw, at, obj),
    async update(at, obj) {
      const s = find(served, at.group, at.resource);
      assert.ok(isUpdater(s));
      const req: UpdateRequest = {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: () => Promise.resolve(structuredClone(obj)),
        },
        options: {},
        forceAllowCreate: false,
      };
      const out = await s.update(testContext(at.namespace ?? ''), obj.metadata?.name ?? '', req);
      return out.object as typeof obj;
    },
  };
}
