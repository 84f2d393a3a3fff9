// The OpenAPI 3.0 documents served per group/version at /openapi/v3/<path>.
import { bearerToken, pathItem, referencedDefinitions } from './document-v2.js';
import type { OperationSpec, PathSpec } from './operation-spec.js';
import type { ParamSpec } from './parameters.js';
import {
  convertDefinitions,
  type DefinitionSource,
  type JsonObject,
  reachableDefinitions,
  refTo,
} from './schema-convert.js';

function param(p: ParamSpec): JsonObject {
  const out: JsonObject = { name: p.name, in: p.in, description: p.description };
  if (p.required === true) out['required'] = true;
  out['schema'] = { type: p.type, uniqueItems: true };
  return out;
}

function content(types: readonly string[], schemaRef: string): JsonObject {
  return Object.fromEntries(types.map((t) => [t, { schema: refTo(schemaRef, 'v3') }]));
}

function operation(op: OperationSpec): JsonObject {
  const out: JsonObject = { tags: [op.tag], description: op.description, operationId: op.operationId };
  const query = op.params.filter((p) => p.in !== 'body');
  if (query.length > 0) out['parameters'] = query.map(param);
  const body = op.params.find((p) => p.in === 'body');
  if (body?.schemaRef !== undefined) {
    const requestBody: JsonObject = { content: content(op.consumes, body.schemaRef) };
    if (body.required === true) requestBody['required'] = true;
    out['requestBody'] = requestBody;
  }
  out['responses'] = Object.fromEntries(
    op.responses.map((r) => [
      r.code,
      r.schemaRef === undefined
        ? { description: r.description }
        : { description: r.description, content: content(op.produces, r.schemaRef) },
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

/** One v3 document holding `paths` (all of one group/version, or one discovery path). */
export function openAPIV3Document(
  scheme: DefinitionSource,
  paths: readonly PathSpec[],
  info: { title: string; version: string },
): JsonObject {
  const sorted = [...paths].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const names = reachableDefinitions(scheme, referencedDefinitions(sorted));
  return {
    openapi: '3.0.0',
    info,
    paths: Object.fromEntries(sorted.map((p) => [p.path, pathItem(p, operation, p.params.map(param))])),
    components: {
      schemas: convertDefinitions(scheme, names, 'v3'),
      securitySchemes: { BearerToken: bearerToken },
    },
    security: [{ BearerToken: [] }],
  };
}
