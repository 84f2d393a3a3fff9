// A GET the metrics clients make of a group version this server serves itself (a local APIService,
// such as the simulated metrics.k8s.io): answered in process by the group's storage, as
// kube-apiserver would answer kube-controller-manager's request, without a network hop.
import type { KubeObject } from '../../../api/meta.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { isGetter, isLister } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { APIAnswer } from './metrics-api-getter.js';

const json = (code: number, value: unknown): APIAnswer => ({
  code,
  body: JSON.stringify(value),
  contentType: 'application/json',
});

/** `[namespace, resource, name]` of `/apis/<group>/<version>/[namespaces/<ns>/]<resource>[/<name>]`. */
function target(pathname: string, gv: { group: string; version: string }): string[] | undefined {
  const prefix = `/apis/${gv.group}/${gv.version}/`;
  if (!pathname.startsWith(prefix)) return undefined;
  let parts: string[];
  try {
    parts = pathname.slice(prefix.length).split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const namespaced = parts[0] === 'namespaces' && parts.length >= 3;
  const [resource = '', name = '', ...rest] = namespaced ? parts.slice(2) : parts;
  if (rest.length > 0 || resource === '') return undefined;
  return [namespaced ? (parts[1] ?? '') : '', resource, name];
}

/** The storage's answer to the GET; undefined when the group version or the resource is not served here. */
export async function localAnswer(
  groups: readonly APIGroupInfo[],
  req: { gv: { group: string; version: string }; path: string; signal: AbortSignal },
): Promise<APIAnswer | undefined> {
  const { gv } = req;
  const storages = groups.find((g) => g.group === gv.group)?.versionedResourcesStorageMap[gv.version];
  const url = new URL(req.path, 'http://local');
  const [namespace = '', resource = '', name = ''] = target(url.pathname, gv) ?? [];
  const storage = resource === '' ? undefined : storages?.[resource];
  if (storage === undefined) return undefined;
  const ctx = internalContext({ namespace, signal: req.signal });
  try {
    let result: KubeObject | undefined;
    if (name !== '' && isGetter(storage)) result = await storage.get(ctx, name, {});
    else if (name === '' && isLister(storage)) {
      const q = url.searchParams;
      const list = await storage.list(ctx, {
        labelSelector: q.get('labelSelector') ?? '',
        fieldSelector: q.get('fieldSelector') ?? '',
      });
      result = list as unknown as KubeObject;
    }
    return result === undefined ? undefined : json(200, result);
  } catch (err) {
    if (!isStatusError(err)) throw err;
    return json(err.status.code, err.status);
  }
}
