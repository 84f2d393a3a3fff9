// The paths of one resource route: collection, item, all-namespaces list, watch and subresource
// paths, with their path-level parameters.
import { groupVersionTag } from './operation-ids.js';
import type { DefinitionOf, PathSpec, OperationSpec } from './operation-spec.js';
import { LIST_PRODUCES } from './operation-spec.js';
import { listParams, nameParam, namespaceParam, type ParamSpec, pretty } from './parameters.js';
import type { ResourceRoute } from './resource-routes.js';
import { type Ctx, collectionOperations, id, itemOperations, ok, op, watchOp } from './verb-operations.js';

export function routePaths(route: ResourceRoute, definitionOf: DefinitionOf): PathSpec[] {
  const def = definitionOf(route.kind);
  if (def === undefined) return [];
  const listDef = route.listKind === undefined ? undefined : definitionOf(route.listKind);
  const prefix = route.group === '' ? `/api/${route.version}` : `/apis/${route.group}/${route.version}`;
  const document = prefix.slice(1);
  const ns = route.namespaced ? '/namespaces/{namespace}' : '';
  const scope = route.namespaced ? 'Namespaced' : '';
  const ctx: Ctx = { route, def, listDef, tag: groupVersionTag(route.group, route.version), scope };
  const kind = route.parentKind;
  const scopeParams = route.namespaced ? [namespaceParam] : [];
  const item = [nameParam(kind), ...scopeParams, pretty];
  const paths: PathSpec[] = [];
  const add = (path: string, params: readonly ParamSpec[], operations: OperationSpec[]): void => {
    if (operations.length > 0) paths.push({ path, document, params, operations });
  };
  if (route.subresource !== undefined) {
    add(`${prefix}${ns}/${route.resource}/{name}/${route.subresource}`, item, itemOperations(ctx));
    return paths;
  }
  add(`${prefix}${ns}/${route.resource}`, [...scopeParams, pretty], collectionOperations(ctx));
  add(`${prefix}${ns}/${route.resource}/{name}`, item, itemOperations(ctx));
  if (route.verbs.has('list') && route.namespaced && listDef !== undefined) {
    const all: Ctx = { ...ctx, scope: '' };
    add(
      `${prefix}/${route.resource}`,
      [pretty],
      [
        op(all, {
          method: 'get',
          operationId: id(all, 'list', 'ForAllNamespaces'),
          description: `Lists or watches objects of kind ${kind}.`,
          action: 'list',
          params: listParams,
          produces: LIST_PRODUCES,
          responses: ok(listDef, '200'),
        }),
      ],
    );
  }
  if (route.verbs.has('watch')) {
    const watchParams = [...listParams];
    add(
      `${prefix}/watch${ns}/${route.resource}`,
      [...scopeParams, pretty],
      [
        {
          ...watchOp(ctx, {
            operationId: id(ctx, 'watch', 'List'),
            action: 'watchlist',
            description: `Watches changes to a list of ${kind}. Deprecated: use watch=true on the list operation.`,
          }),
          params: watchParams,
        },
      ],
    );
    add(`${prefix}/watch${ns}/${route.resource}/{name}`, item, [
      {
        ...watchOp(ctx, {
          operationId: id(ctx, 'watch'),
          action: 'watch',
          description: `Watches changes to a ${kind}. Deprecated: use watch=true on the list operation, filtered by metadata.name.`,
        }),
        params: watchParams,
      },
    ]);
    if (route.namespaced) {
      const all: Ctx = { ...ctx, scope: '' };
      add(
        `${prefix}/watch/${route.resource}`,
        [pretty],
        [
          {
            ...watchOp(all, {
              operationId: id(all, 'watch', 'ListForAllNamespaces'),
              action: 'watchlist',
              description: `Watches changes to a list of ${kind} in all namespaces. Deprecated: use watch=true on the list operation.`,
            }),
            params: watchParams,
          },
        ],
      );
    }
  }
  return paths;
}
