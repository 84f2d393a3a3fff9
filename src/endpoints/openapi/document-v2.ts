// The swagger 2.0 document served at /openapi/v2.
import type { OperationSpec, PathSpec } from './operation-spec.js';
import type { ParamSpec } from './parameters.js';
import {
  convertDefinitions,
  type DefinitionSource,
  type JsonObject,
  reachableDefinitions,
  refTo,
} from './schema-convert.js';

export const bearerToken = {
  type: 'apiKey',
  name: 'authorization',
  in: 'header',
  description: 'Bearer token authentication',
};

function param(p: ParamSpec): JsonObject {
  if (p.in === 'body') {
    const out: JsonObject = { name: p.name, in: 'body' };
    if (p.required === true) out['required'] = true;
    out['schema'] = refTo(p.schemaRef ?? '', 'v2');
    return out;
  }
  const out: JsonObject = {
    uniqueItems: true,
    type: p.type,
    description: p.description,
    name: p.name,
    in: p.in,
  };
  if (p.required === true) out['required'] = true;
  return out;
}

function operation(op: OperationSpec): JsonObject {
  const out: JsonObject = {
    description: op.description,
    consumes: op.consumes,
    produces: op.produces,
    schemes: ['https'],
    tags: [op.tag],
    operationId: op.operationId,
  };
  if (op.params.length > 0) out['parameters'] = op.params.map(param);
  out['responses'] = Object.fromEntries(
    op.responses.map((r) => [
      r.code,
      r.schemaRef === undefined
        ? { description: r.description }
        : { description: r.description, schema: refTo(r.schemaRef, 'v2') },
    ]),
  );
  if (op.action !== undefined) out['x-kubernetes-action'] = op.action;
  if (op.gvk !== undefined)
    out['x-kubernetes-group-version-kind'] = {
      group: op.gvk.group,
      kind: op.gvk.kind,
      version: op.gvk.version,
    };
  return out;
}

export function pathItem(
  path: PathSpec,
  render: (op: OperationSpec) => JsonObject,
  params: JsonObject[],
): JsonObject {
  const item: JsonObject = {};
  for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
    const op = path.operations.find((o) => o.method === method);
    if (op !== undefined) item[method] = render(op);
  }
  if (params.length > 0) item['parameters'] = params;
  return item;
}

/** Definition names the operations refer to. */
export function referencedDefinitions(paths: readonly PathSpec[]): Set<string> {
  const names = new Set<string>();
  for (const path of paths) {
    for (const op of path.operations) {
      for (const p of op.params) if (p.schemaRef !== undefined) names.add(p.schemaRef);
      for (const r of op.responses) if (r.schemaRef !== undefined) names.add(r.schemaRef);
    }
  }
  return names;
}

export function swaggerDocument(
  scheme: DefinitionSource,
  paths: readonly PathSpec[],
  info: { title: string; version: string },
): JsonObject {
  const sorted = [...paths].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const names = reachableDefinitions(scheme, referencedDefinitions(sorted));
  return {
    swagger: '2.0',
    info,
    paths: Object.fromEntries(sorted.map((p) => [p.path, pathItem(p, operation, p.params.map(param))])),
    definitions: convertDefinitions(scheme, names, 'v2'),
    securityDefinitions: { BearerToken: bearerToken },
    security: [{ BearerToken: [] }],
  };
}
