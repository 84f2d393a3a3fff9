// The HPA's way to its target: the scale target reference mapped to a served resource of its group
// and kind (kube's RESTMapper, in every version of the group), and the autoscaling/v1 Scale read and
// written through that resource's `scale` subresource, built in or a custom resource's.
import type { Scale } from '../../../api/autoscaling/v1/scale.js';
import type { CrossVersionObjectReference } from '../../../api/autoscaling/v2/types.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isGetter,
  isUpdater,
  type Getter,
  type Storage,
  type Updater,
} from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';

export interface ScaleTarget {
  /** `deployments.apps`, as kube names the resource in messages. */
  readonly resource: string;
  readonly storage: Getter & Updater;
}

export type Resolved =
  { readonly ok: true; readonly target: ScaleTarget } | { readonly ok: false; readonly error: string };

/** schema.ParseGroupVersion. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return undefined;
}

const kindOf = (storage: Storage): string | undefined => storage.newObject().kind;

/** The resources of the group serving `kind`, each with the storage of its scale in the first version that has one. */
export function mappings(
  groups: readonly APIGroupInfo[],
  group: string,
  kind: string,
): { resource: string; gvr: string; scale?: Storage }[] {
  const found = new Map<string, { resource: string; gvr: string; scale?: Storage }>();
  for (const g of groups.filter((x) => x.group === group))
    for (const version of g.prioritizedVersions) {
      const paths = g.versionedResourcesStorageMap[version] ?? {};
      for (const [path, storage] of Object.entries(paths)) {
        if (path.includes('/') || kindOf(storage) !== kind) continue;
        const scale = paths[`${path}/scale`];
        const known = found.get(path);
        if (known === undefined)
          found.set(path, {
            resource: path,
            gvr: `${group}/${version}, Resource=${path}`,
            ...(scale === undefined ? {} : { scale }),
          });
        else if (known.scale === undefined && scale !== undefined) known.scale = scale;
      }
    }
  return [...found.values()];
}

/** The scale subresource of the referenced target, or the error kube's mapper and scale client give. */
export function resolveScaleTarget(
  groups: readonly APIGroupInfo[],
  ref: CrossVersionObjectReference,
): Resolved {
  const gv = parseGroupVersion(ref.apiVersion ?? '');
  if (gv === undefined)
    return { ok: false, error: `unexpected GroupVersion string: ${ref.apiVersion ?? ''}` };
  const found = mappings(groups, gv.group, ref.kind);
  if (found.length === 0)
    return {
      ok: false,
      error: `no matches for kind ${JSON.stringify(ref.kind)} in group ${JSON.stringify(gv.group)}`,
    };
  const first = found[0];
  const usable = found.find((m) => m.scale !== undefined && isGetter(m.scale) && isUpdater(m.scale));
  if (usable?.scale === undefined || !isGetter(usable.scale) || !isUpdater(usable.scale))
    return {
      ok: false,
      error: `could not find scale subresource for ${first?.gvr ?? ''} in discovery information`,
    };
  const resource = gv.group === '' ? usable.resource : `${usable.resource}.${gv.group}`;
  return { ok: true, target: { resource, storage: usable.scale } };
}

export async function getScale(
  target: ScaleTarget,
  at: { namespace: string; name: string; signal: AbortSignal },
): Promise<Scale> {
  const ctx = internalContext({ namespace: at.namespace, signal: at.signal });
  return (await target.storage.get(ctx, at.name, {})) as Scale;
}

export async function updateScale(target: ScaleTarget, scale: Scale, signal: AbortSignal): Promise<void> {
  const ctx = internalContext({ namespace: scale.metadata?.namespace ?? '', signal });
  await target.storage.update(ctx, scale.metadata?.name ?? '', {
    objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(scale) },
    options: { fieldManager: 'kube-controller-manager' },
  });
}
