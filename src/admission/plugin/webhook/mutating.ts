// The MutatingAdmissionWebhook plugin (k8s.io/apiserver/pkg/admission/plugin/webhook/mutating):
// matching webhooks called one after another, each JSON patch applied to the object before the
// next sees it. A change asks the chain to run once more (src/admission/reinvocation.ts): the
// built-in plugins run again, and so do the IfNeeded webhooks that saw the object before a later
// change (or before the built-ins changed it on their second run); no webhook is called for the
// first time then. Called outside a chain that reinvokes, the plugin does its second round itself.
import { newInternalError } from '../../../machinery/errors/index.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import { jsonEqual } from '../../../machinery/patch/json.js';
import type { KubeObject } from '../../../api/meta.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes, Operation } from '../../attributes.js';
import type { MutationInterface } from '../../interfaces.js';
import type { WebhookAccessor } from './accessor.js';
import { callHook } from './call-hook.js';
import { observeWebhookCall } from './call-metrics.js';
import type { WebhookPoster } from '../../../registry/webhook/client.js';
import { mayHaveWebhooks, requestError, webhooksFor, type WebhookPluginOptions } from './dispatch.js';
import { CallingWebhookError } from './errors.js';
import { annotateFailedOpen, annotateMutation, annotatePatch } from './audit-annotations.js';
import { applyWebhookPatchWithText, decodeJSONPatch, type WebhookJSONPatch } from './json-patch.js';
import { PatchedObjectDecoder } from './patched-decoder.js';
import { anyRuleMatches, matchesAnyRule, shouldCallHook } from './should-call.js';
import { inCodecOrder, type AdmissionResponse, type Invocation } from './review.js';
import { unversionedObject, type VersionedObjects } from './versioned.js';

export const mutatingWebhookPluginName = 'MutatingAdmissionWebhook';

/** Which IfNeeded webhooks have run, and which must run again (kube's webhookReinvokeContext). */
class ReinvokeContext {
  readonly previouslyInvoked = new Set<string>();
  readonly reinvoke = new Set<string>();
  shouldReinvoke = false;
  /** The object as the last webhook left it (to see whether the built-ins changed it since). */
  lastOutput: unknown;

  changed(): void {
    for (const uid of this.previouslyInvoked) this.reinvoke.add(uid);
    this.previouslyInvoked.clear();
    this.shouldReinvoke = true;
  }
}

/** Replaces the object's members by the patched ones: handlers hold the object itself. */
function replaceContents(target: KubeObject, patched: Record<string, unknown>): void {
  const t = target as Record<string, unknown>;
  for (const key of Object.keys(t)) if (!Object.hasOwn(patched, key)) Reflect.deleteProperty(t, key);
  Object.assign(t, patched);
}

/**
 * The response's patch applied to the object as the webhook saw it (its version), read back at the
 * request's version into the request's object (undefined: no patch); whether it changed anything.
 */
async function applyPatch(
  ctx: RequestContext,
  hook: WebhookAccessor,
  r: {
    attributes: Attributes;
    response: AdmissionResponse;
    decoder: PatchedObjectDecoder;
    invocation: Invocation;
    versioned: VersionedObjects;
  },
): Promise<{ changed: boolean; ops: WebhookJSONPatch } | undefined> {
  const { response, attributes: a, invocation } = r;
  if (response.patch.length === 0) return undefined;
  let ops: WebhookJSONPatch;
  try {
    ops = decodeJSONPatch(response.patch);
  } catch (err) {
    throw new CallingWebhookError(
      hook.name,
      `received undecodable patch in webhook response: ${(err as Error).message}`,
    );
  }
  if (ops.decoded.length === 0) return undefined;
  const seen = r.versioned.object;
  if (a.object === null || seen === null)
    throw newInternalError(
      `admission webhook ${JSON.stringify(hook.name)} attempted to modify the object, which is not supported for this operation`,
    );
  if (response.patchType !== 'JSONPatch')
    throw new CallingWebhookError(hook.name, `unsupported patch type ${JSON.stringify(response.patchType)}`);
  let patched: { readonly value: unknown; readonly text: string };
  try {
    // To the object as the review encoded it, as kube applies it to its JSON encoding.
    patched = applyWebhookPatchWithText(inCodecOrder(seen), ops);
  } catch (err) {
    throw newInternalError(err);
  }
  const { value, text } = patched;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw newInternalError('the patched object is not a JSON object');
  const decoded = r.decoder.decode(invocation.kind, { object: value as Record<string, unknown>, text });
  if (!decoded.ok) throw newInternalError(decoded.message);
  // Compared at the webhook's version, as kube does: a round trip through conversion is no change.
  if (jsonEqual(seen, decoded.object)) return { changed: false, ops };
  const object = await unversionedObject(ctx, a, { invocation, object: decoded.object });
  replaceContents(a.object, object);
  return { changed: true, ops };
}

export class MutatingAdmissionWebhook implements MutationInterface {
  readonly #o: WebhookPluginOptions;
  readonly #client: WebhookPoster;
  readonly #decoder = new PatchedObjectDecoder();

  constructor(o: WebhookPluginOptions & { client: WebhookPoster }) {
    this.#o = o;
    this.#client = o.client;
  }

  /** Stops the source's watch and the client's sockets. */
  close(): void {
    this.#o.source.close?.();
    this.#client.close();
  }

  handles(_operation: Operation): boolean {
    return mayHaveWebhooks(this.#o.source);
  }

  /** Asks the chain for a second run when a webhook changed the object: only a covered request can. */
  mayRequestReinvocation(attributes: Attributes): boolean {
    const source = this.#o.source;
    return !source.synced || anyRuleMatches(source.webhooks, attributes);
  }

  async admit(ctx: RequestContext, attributes: Attributes): Promise<void> {
    const hooks = await webhooksFor(this.#o.source, attributes);
    if (hooks.length === 0) return;
    const chain = attributes.reinvocation;
    if (chain === undefined) {
      const reinvocation = new ReinvokeContext();
      await this.#round(ctx, { hooks, all: hooks, attributes, reinvocation, round: 0 });
      if (!reinvocation.shouldReinvoke || reinvocation.reinvoke.size === 0) return;
      const again = hooks.filter((h) => reinvocation.reinvoke.has(h.uid));
      await this.#round(ctx, { hooks: again, all: hooks, attributes, reinvocation, round: 1 });
      return;
    }
    let state = chain.value(mutatingWebhookPluginName) as ReinvokeContext | undefined;
    if (state === undefined) {
      state = new ReinvokeContext();
      chain.setValue(mutatingWebhookPluginName, state);
    }
    // The built-ins changed the object on their second run: every IfNeeded webhook runs again.
    if (chain.isReinvoke && !jsonEqual(state.lastOutput, attributes.object)) state.changed();
    const round = chain.isReinvoke ? 1 : 0;
    const eligible = round === 0 ? hooks : hooks.filter((h) => state.reinvoke.has(h.uid));
    try {
      await this.#round(ctx, { hooks: eligible, all: hooks, attributes, reinvocation: state, round });
    } finally {
      state.lastOutput = deepCopyJSON(attributes.object);
      if (state.shouldReinvoke) chain.shouldReinvoke = true;
    }
  }

  async #round(
    ctx: RequestContext,
    r: {
      hooks: readonly WebhookAccessor[];
      /** Every configured webhook: a webhook's index among them names its audit annotations. */
      all: readonly WebhookAccessor[];
      attributes: Attributes;
      reinvocation: ReinvokeContext;
      round: number;
    },
  ): Promise<void> {
    const { attributes, reinvocation } = r;
    for (const hook of r.hooks) {
      if (!matchesAnyRule(hook, attributes)) continue;
      const should = await shouldCallHook(ctx, hook, { attributes, deps: this.#o });
      if ('error' in should) throw should.error;
      if (!should.call) continue;
      let changed = false;
      let failure: unknown;
      const at = { round: r.round, index: r.all.indexOf(hook) };
      const started = performance.now();
      try {
        const response = await callHook(ctx, hook, {
          attributes,
          invocation: should.invocation,
          versioned: should.versioned,
          client: this.#client,
          mutating: true,
        });
        const applied = await applyPatch(ctx, hook, {
          attributes,
          response,
          decoder: this.#decoder,
          invocation: should.invocation,
          versioned: should.versioned,
        });
        if (applied !== undefined) annotatePatch(ctx, hook, { ...at, ops: applied.ops.operations });
        changed = applied?.changed ?? false;
      } catch (err) {
        failure = err;
      }
      observeWebhookCall(this.#o.metrics, hook, {
        operation: attributes.operation,
        seconds: (performance.now() - started) / 1000,
        failure,
        canceled: ctx.signal.aborted,
      });
      annotateMutation(ctx, hook, { ...at, mutated: changed });
      if (failure instanceof CallingWebhookError && hook.failurePolicy === 'Ignore' && !ctx.signal.aborted)
        annotateFailedOpen(ctx, hook, { ...at, mutating: true });
      if (changed) reinvocation.changed();
      if (hook.reinvocationPolicy === 'IfNeeded' && r.round === 0)
        reinvocation.previouslyInvoked.add(hook.uid);
      if (failure === undefined) continue;
      const err = requestError(ctx, hook, { err: failure, onError: this.#o.onError });
      if (err !== undefined) throw err;
    }
  }
}
