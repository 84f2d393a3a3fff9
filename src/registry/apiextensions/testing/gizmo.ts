// A namespaced custom resource `Gizmo` of example.com/v1 for the custom resource strategy's tests:
// its strategy options over a test's schema, an object of it, and a request context that collects
// the warnings a call adds.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import type { KubeObject } from '../../../api/meta.js';
import { anonymousUser, type RequestContext } from '../../rest/context.js';
import type { CustomResourceStrategyOptions } from '../customresource/strategy.js';

const apiVersion = 'example.com/v1';
const kind = 'Gizmo';

/** The strategy options of Gizmo under `schema`, with the status subresource. */
export function gizmoOptions(
  schema: JSONSchemaProps,
  extra: Partial<CustomResourceStrategyOptions> = {},
): CustomResourceStrategyOptions {
  return { namespaced: true, apiVersion, kind, schema, statusSubresource: true, ...extra };
}

/** A stored Gizmo `g` in `default` with these top-level parts and metadata members. */
export function gizmo(parts: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: { name: 'g', namespace: 'default', resourceVersion: '3', generation: 1, ...meta },
    ...parts,
  };
}

/** A request in `default` whose warnings go into `warnings`. */
export function strategyContext(warnings: string[] = []): RequestContext {
  return {
    signal: new AbortController().signal,
    namespace: 'default',
    user: anonymousUser,
    addWarning: (m) => warnings.push(m),
  };
}
