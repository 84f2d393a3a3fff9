// Finds the handler for a resource request by map lookups over the precomputed route table,
// answering as go-restful would when a path or method has no route (404, 405) or a route
// cannot consume or produce the request's media types (415, 406).
import type { StatusError } from '../machinery/errors/index.js';
import type { Handler } from './handlers/request-scope.js';
import {
  routeMethodNotAllowed,
  routeNotAcceptable,
  routeNotFound,
  routeUnsupportedMediaType,
} from './negotiation/errors.js';
import { patchTypes, supportedMediaTypes, supportedStreamingMediaTypes } from './negotiation/media-types.js';
import {
  groupVersionKey,
  routeMethods,
  type GroupVersionRoutes,
  type MethodTable,
  type ResourceRoutes,
  type RouteMethod,
  type RouteTable,
} from './route-table.js';

export type RouteMatch =
  | { readonly ok: true; readonly routes: ResourceRoutes; readonly handler: Handler }
  | { readonly ok: false; readonly error: StatusError };

interface Shape {
  readonly routes: ResourceRoutes;
  readonly table: MethodTable;
  /** Lists and watches also produce the watch stream type. */
  readonly streams: boolean;
}

const notFound = (): RouteMatch => ({ ok: false, error: routeNotFound() });

function watchTable(handler: Handler | undefined): MethodTable {
  return handler === undefined ? {} : { GET: handler };
}

// `…/<name>/<subresource>/<path…>` reaches connecters that take a subpath (proxies) only.
function subpathAllowed(routes: ResourceRoutes, extra: number, watch: boolean): boolean {
  return extra === 0 || (routes.connectSubpath === true && !watch);
}

function namespacedShape(gv: GroupVersionRoutes, rest: readonly string[], watch: boolean): Shape | undefined {
  if (rest[0] !== 'namespaces' || rest.length < 3) return undefined;
  const [, , resource = '', name, sub] = rest;
  const routes = gv.resources.get(sub === undefined ? resource : `${resource}/${sub}`);
  if (routes === undefined || !routes.scope.namespaced) return undefined;
  if (!subpathAllowed(routes, Math.max(0, rest.length - 5), watch)) return undefined;
  if (watch)
    return {
      routes,
      table: watchTable(name === undefined ? routes.watchCollection : routes.watchItem),
      streams: true,
    };
  return { routes, table: name === undefined ? routes.collection : routes.item, streams: name === undefined };
}

function clusterShape(gv: GroupVersionRoutes, rest: readonly string[], watch: boolean): Shape | undefined {
  if (rest.length === 0) return undefined;
  const [resource = '', name, sub] = rest;
  const routes = gv.resources.get(sub === undefined ? resource : `${resource}/${sub}`);
  if (routes === undefined || !subpathAllowed(routes, Math.max(0, rest.length - 3), watch)) return undefined;
  if (routes.scope.namespaced) {
    if (name !== undefined) return undefined;
    if (watch)
      return {
        routes,
        table: watchTable(routes.allNamespaces.GET === undefined ? undefined : routes.watchCollection),
        streams: true,
      };
    return { routes, table: routes.allNamespaces, streams: true };
  }
  if (watch)
    return {
      routes,
      table: watchTable(name === undefined ? routes.watchCollection : routes.watchItem),
      streams: true,
    };
  return { routes, table: name === undefined ? routes.collection : routes.item, streams: name === undefined };
}

// go-restful compares each Accept type, parameters dropped, with the route's: only */* is a wildcard.
function acceptable(accept: string, produces: readonly string[]): boolean {
  if (accept === '') return true;
  return accept.split(',').some((part) => {
    const mime = (part.split(';')[0] ?? '').trim();
    return mime === '*/*' || produces.includes(mime);
  });
}

function consumable(method: RouteMethod, contentType: string): boolean {
  if (method !== 'PATCH') return true;
  const types = contentType === '' ? ['application/octet-stream'] : contentType.split(',');
  return types.some((t) => (patchTypes as readonly string[]).includes((t.split(';')[0] ?? '').trim()));
}

export interface RouteRequest {
  readonly method: string;
  /** The decoded path split on '/', without empty segments. */
  readonly segments: readonly string[];
  readonly accept: string;
  readonly contentType: string;
}

/** Splits `/api/v1/…` or `/apis/<g>/<v>/…` into its group-version routes and the rest. */
export function groupVersionOf(
  table: RouteTable,
  segments: readonly string[],
): { gv: GroupVersionRoutes | undefined; rest: readonly string[] } {
  const grouped = segments[0] === 'apis';
  const key = grouped
    ? groupVersionKey(segments[1] ?? '', segments[2] ?? '')
    : groupVersionKey('', segments[1] ?? '');
  return { gv: table.groupVersions.get(key), rest: segments.slice(grouped ? 3 : 2) };
}

export function matchRoute(table: RouteTable, r: RouteRequest): RouteMatch {
  const { gv, rest: all } = groupVersionOf(table, r.segments);
  if (gv === undefined) return notFound();
  const watch = all[0] === 'watch';
  const rest = watch ? all.slice(1) : all;
  const shape = namespacedShape(gv, rest, watch) ?? clusterShape(gv, rest, watch);
  if (shape === undefined || Object.keys(shape.table).length === 0) return notFound();
  const method = (routeMethods as readonly string[]).includes(r.method)
    ? (r.method as RouteMethod)
    : undefined;
  const handler = method === undefined ? undefined : shape.table[method];
  if (method === undefined || handler === undefined) return { ok: false, error: routeMethodNotAllowed() };
  if (!consumable(method, r.contentType)) return { ok: false, error: routeUnsupportedMediaType() };
  const produces =
    shape.streams && method === 'GET'
      ? [...supportedMediaTypes, ...supportedStreamingMediaTypes]
      : supportedMediaTypes;
  if (!acceptable(r.accept, produces)) return { ok: false, error: routeNotAcceptable(produces) };
  return { ok: true, routes: shape.routes, handler };
}
