// The routes of one server, precomputed by the installer and read by the router.
import type { APIResource } from './discovery/types.js';
import type { Handler, RequestScope } from './handlers/request-scope.js';

export const routeMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type RouteMethod = (typeof routeMethods)[number];
export type MethodTable = Readonly<Partial<Record<RouteMethod, Handler>>>;

/** Every route of one resource path (`configmaps`, `pods/status`). */
export interface ResourceRoutes {
  readonly scope: RequestScope;
  /** `/…/<resource>` (under `namespaces/<ns>/` for namespaced resources). */
  readonly collection: MethodTable;
  /** `/…/<resource>/<name>[/<subresource>]`. */
  readonly item: MethodTable;
  /** `/…/<resource>` without a namespace, for namespaced resources: list and watch across namespaces. */
  readonly allNamespaces: MethodTable;
  /** The deprecated `/watch/…` forms. */
  readonly watchCollection: Handler | undefined;
  readonly watchItem: Handler | undefined;
  readonly discovery: APIResource;
  /** Connecters that take a path after the subresource (`pods/<name>/proxy/<path>`). */
  readonly connectSubpath?: boolean;
}

export interface GroupVersionRoutes {
  readonly group: string;
  readonly version: string;
  readonly resources: ReadonlyMap<string, ResourceRoutes>;
  /** For discovery, sorted by name. */
  readonly apiResources: readonly APIResource[];
}

export interface GroupRoutes {
  readonly name: string;
  /** Most preferred first. */
  readonly versions: readonly string[];
}

export interface RouteTable {
  /** Keyed `api/v1` or `apis/<group>/<version>`. */
  readonly groupVersions: ReadonlyMap<string, GroupVersionRoutes>;
  /** In the order the groups were given; the core group, if any, first. */
  readonly groups: readonly GroupRoutes[];
}

export function groupVersionKey(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}
