// `--watch-cache-sizes` (ParseWatchCacheSizes in k8s.io/apiserver/pkg/server/options/etcd.go) and
// the resources kube caches not at all by default (DefaultWatchCacheSizes).
import { groupResourceString } from '../../machinery/schema/group-resource.js';

/** schema.ParseGroupResource: `resource` or `resource.group`, split at the first dot. */
function parseGroupResource(s: string): string {
  const i = s.indexOf('.');
  if (i < 0) return groupResourceString({ group: '', resource: s });
  return groupResourceString({ group: s.slice(i + 1), resource: s.slice(0, i) });
}

/** Go's strconv.Atoi on a decimal string. */
function atoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Sizes by group-resource string (`events`, `deployments.apps`), with kube's error texts. */
export function parseWatchCacheSizes(entries: readonly string[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const c of entries) {
    const tokens = c.split('#');
    if (tokens.length !== 2) throw new Error(`invalid value of watch cache size: ${c}`);
    const size = atoi(tokens[1] ?? '');
    if (size === undefined) throw new Error(`invalid size of watch cache size: ${c}`);
    if (size < 0) throw new Error(`watch cache size cannot be negative: ${c}`);
    sizes.set(parseGroupResource(tokens[0] ?? ''), size);
  }
  return sizes;
}

/** kubeapiserver.DefaultWatchCacheSizes: events are served from storage, never cached. */
export const defaultWatchCacheSizes: readonly string[] = ['events#0', 'events.events.k8s.io#0'];
