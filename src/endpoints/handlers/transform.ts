// Shapes a result as the client asked (Table, PartialObjectMetadata[List]) and writes it
// (handlers/response.go transformResponseObject, asTable, asPartialObjectMetadata[List]).
import type { KubeList, KubeObject, ObjectMeta } from '../../api/meta.js';
import { newBadRequest, newNotAcceptable } from '../../machinery/errors/index.js';
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import { FieldError, newPath } from '../../machinery/validation/index.js';
import type { RequestContext } from '../../registry/rest/context.js';
import type { MediaTypeOptions } from '../negotiation/negotiate.js';
import { writeObjectNegotiated } from '../responsewriters/write-object.js';
import type { HandlerRequest, RequestScope } from './request-scope.js';

export const includeObjectPolicies = ['', 'None', 'Object', 'Metadata'] as const;
export type IncludeObjectPolicy = (typeof includeObjectPolicies)[number];

const isMetaGroupVersion = (gv: { group: string; version: string }): boolean =>
  gv.group === 'meta.k8s.io' && (gv.version === 'v1' || gv.version === 'v1beta1');

export function isList(obj: unknown): obj is KubeList {
  return typeof obj === 'object' && obj !== null && Array.isArray((obj as { items?: unknown }).items);
}

const isStatus = (obj: unknown): boolean => (obj as { kind?: unknown }).kind === 'Status';

/** TableOptions from the query when a Table was asked for; a bad includeObject is a 400. */
export function tableOptionsFor(
  media: MediaTypeOptions,
  query: URLSearchParams,
): IncludeObjectPolicy | undefined {
  const target = media.convert;
  if (target?.kind !== 'Table' || !isMetaGroupVersion(target)) return undefined;
  const value = query.get('includeObject') ?? '';
  if ((includeObjectPolicies as readonly string[]).includes(value)) return value as IncludeObjectPolicy;
  const err = FieldError.notSupported(newPath('includeObject'), value, ['', 'Metadata', 'None', 'Object']);
  throw newBadRequest(`Unable to convert to Table as requested: ${err.error()}`);
}

// Go's %T of the internal type kube would hold: *core.ConfigMapList.
function goType(scope: RequestScope, list: boolean): string {
  const pkg = scope.kind.group === '' ? 'core' : (scope.kind.group.split('.')[0] ?? '');
  return `*${pkg}.${scope.kind.kind}${list ? 'List' : ''}`;
}

function partial(meta: ObjectMeta | undefined, apiVersion: string): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: meta ?? {} };
}

function asPartialObjectMetadata(scope: RequestScope, obj: unknown, target: GroupVersionKind): unknown {
  if (isList(obj)) {
    throw newNotAcceptable(
      `you requested PartialObjectMetadata, but the requested object is a list (${goType(scope, true)})`,
    );
  }
  if (!isMetaGroupVersion(target))
    throw newNotAcceptable(
      `no PartialObjectMetadataList exists in group version ${target.group}/${target.version}`,
    );
  return partial((obj as KubeObject).metadata, `meta.k8s.io/${target.version}`);
}

function asPartialObjectMetadataList(scope: RequestScope, obj: unknown, target: GroupVersionKind): unknown {
  if (!isList(obj)) {
    throw newNotAcceptable(
      `you requested PartialObjectMetadataList, but the requested object is not a list (${goType(scope, false)})`,
    );
  }
  if (!isMetaGroupVersion(target))
    throw newNotAcceptable(
      `no PartialObjectMetadataList exists in group version ${target.group}/${target.version}`,
    );
  const apiVersion = `meta.k8s.io/${target.version}`;
  const { resourceVersion, continue: cont, remainingItemCount } = obj.metadata;
  const metadata: Record<string, unknown> = {};
  if (resourceVersion !== undefined && resourceVersion !== '') metadata['resourceVersion'] = resourceVersion;
  if (cont !== undefined && cont !== '') metadata['continue'] = cont;
  if (remainingItemCount !== undefined) metadata['remainingItemCount'] = remainingItemCount;
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion,
    metadata,
    items: obj.items.map((i) => partial(i.metadata, apiVersion)),
  };
}

function asTable(
  scope: RequestScope,
  input: { ctx: RequestContext; obj: KubeObject | KubeList; include: IncludeObjectPolicy },
  target: GroupVersionKind,
): Record<string, unknown> {
  if (!isMetaGroupVersion(target))
    throw newNotAcceptable(`no Table exists in group version ${target.group}/${target.version}`);
  const convertor = scope.tableConvertor;
  if (convertor === undefined)
    throw newNotAcceptable(`no Table exists in group version ${target.group}/${target.version}`);
  const table = convertor.convertToTable(input.ctx, input.obj, {
    includeObject: input.include === '' ? 'Metadata' : input.include,
  });
  const rows = table.rows.map((row) => {
    const { object, ...rest } = row;
    if (input.include === 'None' || object === undefined) return rest;
    if (input.include === 'Object') return { ...rest, object };
    return { ...rest, object: partial(object.metadata, `meta.k8s.io/${target.version}`) };
  });
  return { ...table, apiVersion: `meta.k8s.io/${target.version}`, rows };
}

/** The object to write for `result` under the negotiated media type. */
export function transformObject(
  scope: RequestScope,
  input: { ctx: RequestContext; result: KubeObject | KubeList; include: IncludeObjectPolicy | undefined },
  target: GroupVersionKind | null,
): unknown {
  if (target === null || isStatus(input.result)) return input.result;
  switch (target.kind) {
    case 'PartialObjectMetadata':
      return asPartialObjectMetadata(scope, input.result, target);
    case 'PartialObjectMetadataList':
      return asPartialObjectMetadataList(scope, input.result, target);
    case 'Table':
      return asTable(scope, { ctx: input.ctx, obj: input.result, include: input.include ?? '' }, target);
    default:
      throw newNotAcceptable(
        'only the following media types are accepted: application/json, application/yaml',
      );
  }
}

/** transformResponseObject: empty lists get `items: []`, then the transformed result is written. */
export function writeResult(
  scope: RequestScope,
  hr: HandlerRequest,
  out: { code: number; media: MediaTypeOptions; ctx: RequestContext; result: KubeObject | KubeList },
): void {
  const include = tableOptionsFor(out.media, hr.ex.url.searchParams);
  const result = out.result;
  // A list with no items says `items: []`, never null or nothing.
  if (typeof result.kind === 'string' && result.kind.endsWith('List') && !Array.isArray(result['items']))
    result['items'] = [];
  const obj = transformObject(scope, { ctx: out.ctx, result, include }, out.media.convert);
  // kube's WriteObjectNegotiated logs the object it writes (LogResponseObject).
  hr.audit?.logResponseObject?.(obj);
  writeObjectNegotiated(hr.ex, { code: out.code, object: obj }, { mediaType: out.media });
}
