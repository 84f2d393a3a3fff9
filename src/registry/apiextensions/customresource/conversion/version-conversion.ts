// How a custom resource moves between a served version and the storage version (apiextensions-
// apiserver's conversion.NewCRConverterFactory): strategy None changes only apiVersion and stays
// synchronous; strategy Webhook asks the CRD's webhook. Either way the served version's defaults
// fill what an object read from storage lacks (kube defaults on read too, so a default added to a
// CRD shows on objects stored before).
import type { CustomResourceDefinition } from '../../../../api/apiextensions/v1/crd.js';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import type { KubeObject } from '../../../../api/meta.js';
import type { RequestContext } from '../../../rest/context.js';
import { newInvalid } from '../../../../machinery/errors/index.js';
import { deepCopyJSON } from '../../../../machinery/json/deep-copy.js';
import { inSortedMemberOrder } from '../../../../machinery/json/sorted-members.js';
import type { ErrorList } from '../../../../machinery/validation/index.js';
import { jsonEqual } from '../../../../machinery/patch/json.js';
import type { AsyncVersionConversion } from '../../../generic/async-converting-view.js';
import type { VersionConversion } from '../../../generic/converting-view.js';
import type { WebhookPoster } from '../../../webhook/client.js';
import { applyDefaults, holdsDefaults } from '../schema/defaults.js';
import { conversionFailure, WebhookConverter } from './webhook-converter.js';

export interface VersionPair {
  /** apiVersion served, and stored. */
  readonly served: string;
  readonly stored: string;
  readonly kind: string;
  /** The served version's schema. */
  readonly schema: JSONSchemaProps;
}

function defaulter(schema: JSONSchemaProps): (obj: KubeObject) => KubeObject {
  if (!holdsDefaults(schema)) return (obj) => obj;
  return (obj) => {
    if (obj.kind === 'Status') return obj;
    const copy = deepCopyJSON(obj);
    applyDefaults(copy, schema);
    // kube serves the defaulted map, keys sorted at every level as stored objects are.
    return jsonEqual(copy, obj) ? obj : inSortedMemberOrder(copy);
  };
}

/** Conversion strategy None: the same object at another apiVersion. */
export function noneConversion(p: VersionPair): VersionConversion<KubeObject, KubeObject> {
  const retag = (obj: KubeObject, apiVersion: string): KubeObject =>
    obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
  const withDefaults = defaulter(p.schema);
  return {
    apiVersion: p.served,
    kind: p.kind,
    toInner: (obj) => retag(obj, p.stored),
    fromInner: (obj) => withDefaults(retag(obj, p.served)),
  };
}

/** A synchronous conversion where an awaited one is taken (status subresources). */
export function awaitedConversion(conv: VersionConversion<KubeObject, KubeObject>): AsyncVersionConversion {
  return {
    apiVersion: conv.apiVersion,
    kind: conv.kind,
    toInner: (_ctx, obj) => Promise.resolve(conv.toInner(obj)),
    fromInner: (_ctx, objs) => Promise.resolve(objs.map((o) => conv.fromInner(o))),
  };
}

/** Whether the CRD converts through a webhook. */
export function usesWebhook(crd: CustomResourceDefinition): boolean {
  return crd.spec.conversion?.strategy === 'Webhook';
}

/** Conversion strategy Webhook between one served version and the storage version. */
export function webhookConversion(
  crd: CustomResourceDefinition,
  p: VersionPair & {
    client: WebhookPoster | undefined;
    servedErrors: (ctx: RequestContext, obj: KubeObject, old: KubeObject | null) => ErrorList;
  },
): AsyncVersionConversion {
  const webhook = crd.spec.conversion?.webhook;
  const client = p.client;
  const converter =
    webhook?.clientConfig === undefined || client === undefined
      ? undefined
      : new WebhookConverter({
          clientConfig: webhook.clientConfig,
          conversionReviewVersions: webhook.conversionReviewVersions,
          client,
        });
  const need = (): WebhookConverter => {
    if (converter === undefined)
      throw conversionFailure(`conversion webhook for ${crd.metadata?.name ?? ''} is not configured`);
    return converter;
  };
  const listKind = crd.spec.names.listKind ?? `${p.kind}List`;
  const withDefaults = defaulter(p.schema);
  const groupKind = { group: crd.spec.group, kind: p.kind };
  return {
    apiVersion: p.served,
    kind: p.kind,
    checkServed: (ctx, obj, old) => {
      const errs = p.servedErrors(ctx, obj, old);
      if (errs.length > 0) throw newInvalid(groupKind, obj.metadata?.name ?? '', errs);
    },
    toInner: async (ctx, obj) => {
      const [out] = await need().convert(ctx, {
        objects: [obj],
        to: p.stored,
        from: { apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? p.kind },
        list: false,
      });
      return out ?? obj;
    },
    fromInner: async (ctx, objs, asList = false) => {
      const first = objs[0];
      const from = asList
        ? { apiVersion: p.stored, kind: listKind }
        : { apiVersion: first?.apiVersion ?? p.stored, kind: first?.kind ?? p.kind };
      const out = await need().convert(ctx, { objects: objs, to: p.served, from, list: asList });
      // Decoded as a map by kube, then written with its keys sorted, whatever the webhook's order.
      return out.map((o) => withDefaults(o.kind === 'Status' ? o : inSortedMemberOrder(o)));
    },
  };
}
