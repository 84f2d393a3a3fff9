// Conversion strategy Webhook (apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go):
// the objects not yet at the desired apiVersion go to the CRD's webhook in one ConversionReview (a
// list's items together), and what comes back is checked and given the original metadata again.
// Failures are kube's: a 500 Status without a reason whose message starts
// `conversion webhook for <group/version, Kind=Kind> ...` (kube's apierrors.ErrorToAPIStatus of a
// plain error).
import { randomUUID } from 'node:crypto';
import type { WebhookClientConfig } from '../../../../api/apiextensions/v1/crd.js';
import type { KubeObject } from '../../../../api/meta.js';
import { StatusError } from '../../../../machinery/errors/index.js';
import { goJSONText } from '../../../../machinery/json/go-json-text.js';
import { orderedStatus } from '../../../../machinery/errors/status-order.js';
import type { RequestContext } from '../../../rest/context.js';
import type { WebhookPoster } from '../../../webhook/client.js';
import {
  conversionReview,
  convertedObjectsOf,
  gvkString,
  negotiateConversionReviewVersion,
} from './conversion-review.js';
import { convertedObjectProblem, restoreObjectMeta } from './converted-object.js';

/** kube's rest client leaves the timeout to the request; the webhook is told 30s. */
const conversionTimeoutSeconds = 30;

export interface WebhookConverterOptions {
  readonly clientConfig: WebhookClientConfig;
  readonly conversionReviewVersions: readonly string[];
  readonly client: WebhookPoster;
}

/** One conversion: the objects, where to, and the object they came in (named in errors). */
export interface ConversionInput {
  readonly objects: readonly KubeObject[];
  readonly to: string;
  /** apiVersion and kind of what is converted: the object, or the list the objects are items of. */
  readonly from: { readonly apiVersion: string; readonly kind: string };
  readonly list: boolean;
}

/** A 500 Status with no reason (kube's StatusReasonUnknown, ""), as kube answers a plain error. */
export function conversionFailure(message: string): StatusError {
  return new StatusError(
    orderedStatus({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 }),
  );
}

const isEmptyObject = (obj: KubeObject): boolean => {
  const keys = Object.keys(obj);
  return keys.length === 2 && keys.includes('apiVersion') && keys.includes('kind');
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export class WebhookConverter {
  readonly #o: WebhookConverterOptions;

  constructor(o: WebhookConverterOptions) {
    this.#o = o;
  }

  /** The objects at `to`, in their order; throws a StatusError as kube words it. */
  async convert(ctx: RequestContext, input: ConversionInput): Promise<KubeObject[]> {
    const pending = input.objects.filter((o) => o.apiVersion !== input.to && !isEmptyObject(o));
    const version = negotiateConversionReviewVersion(this.#o.conversionReviewVersions);
    if (version === undefined) throw conversionFailure('no supported conversion review versions');
    if (pending.length === 0)
      return input.objects.map((o) => (isEmptyObject(o) ? { ...o, apiVersion: input.to } : o));
    const described = gvkString(input.from.apiVersion, input.from.kind);
    const uid = randomUUID();
    const review = conversionReview(version, { uid, desiredAPIVersion: input.to, objects: pending });
    let converted: unknown[];
    try {
      const answer = await this.#o.client.post(ctx, {
        clientConfig: this.#o.clientConfig,
        timeoutSeconds: conversionTimeoutSeconds,
        body: Buffer.from(goJSONText(review), 'utf8'),
      });
      converted = convertedObjectsOf(answer, { uid, version });
    } catch (err) {
      throw conversionFailure(`conversion webhook for ${described} failed: ${(err as Error).message}`);
    }
    if (converted.length !== pending.length)
      throw conversionFailure(
        `conversion webhook for ${described} returned ${String(converted.length)} objects, expected ${String(pending.length)}`,
      );
    const results = new Map<KubeObject, KubeObject>();
    pending.forEach((original, i) => {
      const raw = converted[i];
      results.set(
        original,
        input.list
          ? checkListItem(original, raw, { described, to: input.to, i })
          : checkSingle(original, raw, { described, to: input.to }),
      );
    });
    return input.objects.map(
      (o) => results.get(o) ?? (isEmptyObject(o) ? { ...o, apiVersion: input.to } : o),
    );
  }
}

interface Where {
  readonly described: string;
  readonly to: string;
}

function checkSingle(original: KubeObject, raw: unknown, w: Where): KubeObject {
  const out = isRecord(raw) ? raw : {};
  const prefix = `conversion webhook for ${w.described} returned invalid`;
  const apiVersion = typeof out['apiVersion'] === 'string' ? out['apiVersion'] : '';
  if (apiVersion !== w.to)
    throw conversionFailure(
      `${prefix} object at index 0: invalid groupVersion (expected ${w.to}, received ${apiVersion})`,
    );
  const kind = typeof out['kind'] === 'string' ? out['kind'] : '';
  if (kind !== original.kind)
    throw conversionFailure(
      `${prefix} object at index 0: invalid kind (expected ${original.kind}, received ${kind})`,
    );
  const problem = convertedObjectProblem(original, out);
  if (problem !== undefined) throw conversionFailure(`${prefix} object: ${problem}`);
  try {
    return restoreObjectMeta(original, out);
  } catch (err) {
    throw conversionFailure(`${prefix} metadata: ${(err as Error).message}`);
  }
}

/** kube counts the item before checking it, so these messages name the index after it. */
function checkListItem(original: KubeObject, raw: unknown, w: Where & { i: number }): KubeObject {
  if (!isRecord(raw))
    throw conversionFailure(
      `conversion webhook for ${w.described} returned invalid converted object at index ${String(w.i)}: Object 'Kind' is missing in '${JSON.stringify(raw)}'`,
    );
  const at = `conversion webhook for ${w.described} returned invalid converted object at index ${String(w.i + 1)}`;
  const apiVersion = typeof raw['apiVersion'] === 'string' ? raw['apiVersion'] : '';
  if (apiVersion !== w.to)
    throw conversionFailure(`${at}: invalid groupVersion (expected ${w.to}, received ${apiVersion})`);
  const kind = typeof raw['kind'] === 'string' ? raw['kind'] : '';
  if (kind !== original.kind)
    throw conversionFailure(`${at}: invalid kind (expected ${original.kind}, received ${kind})`);
  const problem = convertedObjectProblem(original, raw);
  if (problem !== undefined) throw conversionFailure(`${at}: ${problem}`);
  try {
    return restoreObjectMeta(original, raw);
  } catch (err) {
    throw conversionFailure(
      `conversion webhook for ${w.described} returned invalid metadata in object at index ${String(w.i + 1)}: ${(err as Error).message}`,
    );
  }
}
