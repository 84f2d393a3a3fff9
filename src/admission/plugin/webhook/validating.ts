// The ValidatingAdmissionWebhook plugin (k8s.io/apiserver/pkg/admission/plugin/webhook/validating):
// every matching webhook called at once after the built-in validating plugins; the first error to
// arrive fails the request.
import { newTimeoutError, type StatusError } from '../../../machinery/errors/index.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes, Operation } from '../../attributes.js';
import type { ValidationInterface } from '../../interfaces.js';
import { callHook } from './call-hook.js';
import { observeWebhookCall } from './call-metrics.js';
import { annotateFailedOpen } from './audit-annotations.js';
import { CallingWebhookError } from './errors.js';
import type { WebhookPoster } from '../../../registry/webhook/client.js';
import {
  mayHaveWebhooks,
  relevantHooks,
  requestError,
  webhooksFor,
  type Call,
  type WebhookPluginOptions,
} from './dispatch.js';

export const validatingWebhookPluginName = 'ValidatingAdmissionWebhook';

export class ValidatingAdmissionWebhook implements ValidationInterface {
  readonly #o: WebhookPluginOptions;
  readonly #client: WebhookPoster;

  constructor(o: WebhookPluginOptions & { client: WebhookPoster }) {
    this.#o = o;
    this.#client = o.client;
  }

  /** Stops the source's watch and the client's sockets. */
  close(): void {
    this.#o.source.close?.();
    this.#client.close();
  }

  /** All four operations, while any webhook is configured: none costs a request nothing. */
  handles(_operation: Operation): boolean {
    return mayHaveWebhooks(this.#o.source);
  }

  async validate(ctx: RequestContext, attributes: Attributes): Promise<void> {
    const hooks = await webhooksFor(this.#o.source, attributes);
    if (hooks.length === 0) return;
    const calls = await relevantHooks(ctx, hooks, { attributes, deps: this.#o });
    if (calls.length === 0) return;
    if (ctx.signal.aborted) throw newTimeoutError('request did not complete within requested timeout', 0);
    let first: StatusError | undefined;
    await Promise.all(
      calls.map(async (call: Call, index) => {
        const err = await this.#call(ctx, call, { attributes, index });
        first ??= err;
      }),
    );
    if (first !== undefined) throw first;
  }

  async #call(
    ctx: RequestContext,
    call: Call,
    r: { attributes: Attributes; index: number },
  ): Promise<StatusError | undefined> {
    const { attributes } = r;
    const started = performance.now();
    let failure: unknown;
    try {
      await callHook(ctx, call.hook, {
        attributes,
        invocation: call.invocation,
        versioned: call.versioned,
        client: this.#client,
        mutating: false,
      });
    } catch (err) {
      failure = err;
    }
    observeWebhookCall(this.#o.metrics, call.hook, {
      operation: attributes.operation,
      seconds: (performance.now() - started) / 1000,
      failure,
      canceled: ctx.signal.aborted,
    });
    if (failure === undefined) return undefined;
    if (failure instanceof CallingWebhookError && call.hook.failurePolicy === 'Ignore')
      annotateFailedOpen(ctx, call.hook, { round: 0, index: r.index, mutating: false });
    return requestError(ctx, call.hook, { err: failure, onError: this.#o.onError });
  }
}
