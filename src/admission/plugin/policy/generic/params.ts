// The params one binding evaluates its policy with (k8s.io/apiserver/pkg/admission/plugin/policy/
// generic/policy_dispatcher.go, CollectParams): none without a paramKind or paramRef (one run with
// params null), the named object, or every object the selector picks, in the paramRef's namespace
// or the request's; parameterNotFoundAction Deny turns an empty result into an error.
import type { ParamKind, ParamRef } from '../../../../api/admissionregistration/v1/policy.js';
import type { KubeObject } from '../../../../api/meta.js';
import { isStatusError } from '../../../../machinery/errors/index.js';
import { labelSelectorAsSelector } from '../../../../machinery/labels/index.js';
import type { Getter, Lister } from '../../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../../registry/rest/context.js';

/** Where the objects of a paramKind are read. */
export interface ParamStore {
  readonly storage: Getter & Lister;
  readonly namespaced: boolean;
}

export type ParamStoreLookup = (paramKind: ParamKind) => ParamStore | undefined;

/** A configuration error of the binding, reported as `failed to configure binding: …`. */
export class ParamError extends Error {}

async function getParam(ctx: RequestContext, store: ParamStore, name: string): Promise<KubeObject[]> {
  try {
    return [await store.storage.get(ctx, name, { resourceVersion: '0', readOnly: true })];
  } catch (err) {
    if (!isStatusError(err) || err.reason !== 'NotFound') throw err;
  }
  try {
    return [await store.storage.get(ctx, name, { readOnly: true })];
  } catch (err) {
    if (isStatusError(err) && err.reason === 'NotFound') return [];
    throw err;
  }
}

export async function collectParams(
  parent: RequestContext,
  opts: {
    paramKind: ParamKind | undefined;
    paramRef: ParamRef | undefined;
    store: ParamStore | undefined;
    namespace: string;
  },
): Promise<(KubeObject | null)[]> {
  const { paramKind, paramRef, store } = opts;
  if (paramKind === undefined || paramRef === undefined) return [null];
  if (store === undefined) throw new ParamError(`paramKind kind \`${paramKindString(paramKind)}\` not known`);
  let namespace = '';
  if (store.namespaced) {
    namespace = (paramRef.namespace ?? '') !== '' ? (paramRef.namespace ?? '') : opts.namespace;
    if (namespace === '')
      throw new ParamError(
        'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources',
      );
  } else if ((paramRef.namespace ?? '') !== '') {
    throw new ParamError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  const ctx = internalContext({ namespace, parent });
  let params: KubeObject[];
  if ((paramRef.name ?? '') !== '') {
    if (paramRef.selector !== undefined)
      throw new ParamError('paramRef.name and paramRef.selector are mutually exclusive');
    params = await getParam(ctx, store, paramRef.name ?? '');
  } else if (paramRef.selector !== undefined) {
    const selector = labelSelectorAsSelector(paramRef.selector);
    if (!selector.ok) throw new ParamError(selector.message);
    const list = await store.storage.list(ctx, {
      labelSelector: selector.selector.toString(),
      resourceVersion: '0',
      readOnly: true,
    });
    params = list.items;
  } else {
    throw new ParamError('one of name or selector must be provided');
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny')
    throw new ParamError('no params found for policy binding with `Deny` parameterNotFoundAction');
  return params;
}

/** ParamKind.String() as Go prints the struct. */
export function paramKindString(pk: ParamKind): string {
  return `&ParamKind{APIVersion:${pk.apiVersion ?? ''},Kind:${pk.kind ?? ''},}`;
}

/** The paramKind as Go prints a GroupVersionKind (`/v1, Kind=ConfigMap`). */
export function paramGVKString(pk: ParamKind): string {
  const apiVersion = pk.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const gv = slash < 0 ? `/${apiVersion}` : apiVersion;
  return `${gv}, Kind=${pk.kind ?? ''}`;
}
