// Default storage keys, as NamespaceKeyRootFunc/NamespaceKeyFunc/NoNamespaceKeyFunc in
// k8s.io/apiserver/pkg/registry/generic/registry/store.go: `<prefix>/<namespace>/<name>` for
// namespaced resources and `<prefix>/<name>` for cluster-scoped ones.
import { newBadRequest } from '../../machinery/errors/index.js';
import { goQuote, isValidPathSegmentName } from '../../machinery/validation/index.js';
import type { RequestContext } from '../rest/context.js';

/** The key of one object, relative to the storage's path prefix. */
export type KeyFunc = (ctx: RequestContext, name: string) => string;
/** The key under which a collection lives (no trailing '/'). */
export type KeyRootFunc = (ctx: RequestContext) => string;

function checkName(name: string): void {
  if (name.length === 0) throw newBadRequest('Name parameter required.');
  const msgs = isValidPathSegmentName(name);
  if (msgs.length > 0) throw newBadRequest(`Name parameter invalid: ${goQuote(name)}: ${msgs.join(';')}`);
}

/** `<prefix>/<namespace>`, or `<prefix>` when the request names no namespace (all-namespace lists). */
export function namespaceKeyRootFunc(ctx: RequestContext, prefix: string): string {
  return ctx.namespace.length > 0 ? `${prefix}/${ctx.namespace}` : prefix;
}

/** `<prefix>/<namespace>/<name>`; a BadRequest without a namespace or with an unusable name. */
export function namespaceKeyFunc(ctx: RequestContext, prefix: string, name: string): string {
  const root = namespaceKeyRootFunc(ctx, prefix);
  if (ctx.namespace.length === 0) throw newBadRequest('Namespace parameter required.');
  checkName(name);
  return `${root}/${name}`;
}

/** `<prefix>/<name>`; a BadRequest for an unusable name. */
export function noNamespaceKeyFunc(_ctx: RequestContext, prefix: string, name: string): string {
  checkName(name);
  return `${prefix}/${name}`;
}
