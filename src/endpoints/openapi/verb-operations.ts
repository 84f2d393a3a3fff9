// The operations of one resource path: reads, writes, deletes and watches, named as the
// installer names them (verb + group/version + scope + kind + subresource).
import { metaV1 } from '../../api/schema/api-module.js';
import { operationID, titleCase, type OperationVerb } from './operation-ids.js';
import {
  ANY,
  JSON_YAML,
  type KubeAction,
  LIST_PRODUCES,
  type OperationSpec,
  patchMediaTypes,
  type ResponseSpec,
  unauthorized,
  WATCH_PRODUCES,
} from './operation-spec.js';
import {
  body,
  deleteCollectionParams,
  deleteOneParams,
  listParams,
  optionalBody,
  patchParams,
  writeParams,
} from './parameters.js';
import type { ResourceRoute } from './resource-routes.js';

const STATUS = metaV1('Status');
const WATCH_EVENT = metaV1('WatchEvent');

export interface Ctx {
  readonly route: ResourceRoute;
  readonly def: string;
  readonly listDef: string | undefined;
  readonly tag: string;
  readonly scope: string;
}

export function op(
  ctx: Ctx,
  o: Omit<OperationSpec, 'tag' | 'gvk' | 'consumes'> & { consumes?: readonly string[] },
): OperationSpec {
  return { consumes: ANY, ...o, tag: ctx.tag, gvk: ctx.route.kind };
}

export function id(ctx: Ctx, verb: OperationVerb, suffix = ''): string {
  const sub = ctx.route.subresource === undefined ? '' : titleCase(ctx.route.subresource);
  return operationID(verb, ctx.route, ctx.scope + ctx.route.parentKind + sub + suffix);
}

export const ok = (def: string, ...codes: string[]): ResponseSpec[] => [
  ...codes.map((code) => ({
    code,
    description: code === '200' ? 'OK' : code === '201' ? 'Created' : 'Accepted',
    schemaRef: def,
  })),
  unauthorized,
];

export function itemOperations(ctx: Ctx): OperationSpec[] {
  const { route, def } = ctx;
  const kind = route.parentKind;
  const what =
    route.subresource === undefined
      ? `the specified ${kind}`
      : `${route.subresource} of the specified ${kind}`;
  const ops: OperationSpec[] = [];
  if (route.verbs.has('get')) {
    ops.push(
      op(ctx, {
        method: 'get',
        operationId: id(ctx, 'read'),
        description: `Reads ${what}.`,
        action: 'get',
        params: [],
        produces: JSON_YAML,
        responses: ok(def, '200'),
      }),
    );
  }
  if (route.verbs.has('update')) {
    ops.push(
      op(ctx, {
        method: 'put',
        operationId: id(ctx, 'replace'),
        description: `Replaces ${what}.`,
        action: 'put',
        params: [body(def), ...writeParams],
        produces: JSON_YAML,
        responses: ok(def, '200', '201'),
      }),
    );
  }
  if (route.verbs.has('patch')) {
    ops.push(
      op(ctx, {
        method: 'patch',
        operationId: id(ctx, 'patch'),
        description: `Partially updates ${what}.`,
        action: 'patch',
        params: [body(metaV1('Patch')), ...patchParams],
        consumes: patchMediaTypes,
        produces: JSON_YAML,
        responses: ok(def, '200', '201'),
      }),
    );
  }
  if (route.verbs.has('delete')) {
    ops.push(
      op(ctx, {
        method: 'delete',
        operationId: id(ctx, 'delete'),
        description: `Deletes ${what}.`,
        action: 'delete',
        params: [optionalBody(metaV1('DeleteOptions')), ...deleteOneParams],
        produces: JSON_YAML,
        responses: ok(STATUS, '200', '202'),
      }),
    );
  }
  if (route.verbs.has('create') && route.subresource !== undefined) {
    ops.push(
      op(ctx, {
        method: 'post',
        operationId: id(ctx, 'create'),
        description: `Creates ${what}.`,
        action: 'post',
        params: [body(def), ...writeParams],
        produces: JSON_YAML,
        responses: ok(def, '200', '201', '202'),
      }),
    );
  }
  return ops;
}

export function collectionOperations(ctx: Ctx): OperationSpec[] {
  const { route, def, listDef } = ctx;
  const kind = route.parentKind;
  const ops: OperationSpec[] = [];
  if (route.verbs.has('list') && listDef !== undefined) {
    ops.push(
      op(ctx, {
        method: 'get',
        operationId: id(ctx, 'list'),
        description: `Lists or watches objects of kind ${kind}.`,
        action: 'list',
        params: listParams,
        produces: LIST_PRODUCES,
        responses: ok(listDef, '200'),
      }),
    );
  }
  if (route.verbs.has('create')) {
    ops.push(
      op(ctx, {
        method: 'post',
        operationId: id(ctx, 'create'),
        description: `Creates a ${kind}.`,
        action: 'post',
        params: [body(def), ...writeParams],
        produces: JSON_YAML,
        responses: ok(def, '200', '201', '202'),
      }),
    );
  }
  if (route.verbs.has('deletecollection')) {
    ops.push(
      op(ctx, {
        method: 'delete',
        operationId: operationID('delete', route, `Collection${ctx.scope}${kind}`),
        description: `Deletes a collection of ${kind}.`,
        action: 'deletecollection',
        params: [optionalBody(metaV1('DeleteOptions')), ...deleteCollectionParams],
        produces: JSON_YAML,
        responses: ok(STATUS, '200'),
      }),
    );
  }
  return ops;
}

export const watchOp = (
  ctx: Ctx,
  o: { operationId: string; action: KubeAction; description: string },
): OperationSpec =>
  op(ctx, { method: 'get', ...o, params: [], produces: WATCH_PRODUCES, responses: ok(WATCH_EVENT, '200') });

/** The paths and operations of one route. */
