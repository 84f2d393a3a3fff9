// ResourceQuota (k8s.io/apiserver/pkg/admission/plugin/resourcequota): an object that would take a
// namespace over any of its ResourceQuotas' status.hard is refused, 403, with kube's text
// (`exceeded quota: NAME, requested: …, used: …, limited: …`); one that fits is charged to each
// quota's status.used before it is written, so quick creates cannot slip past a bound before the
// quota controller recounts. Charges of one namespace are made one at a time here; each charge
// rereads the stored quota inside its write, so other servers' charges are not lost either.
import type { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import { isStatusError, newNotFound } from '../../../machinery/errors/index.js';
import type { Lister, Updater } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type AdmissionResult, withLookup, type ValidationInterface } from '../../interfaces.js';
import { NamespacedLister } from '../namespaced-lister.js';
import { charge, interestingQuotas, precheck } from './charge.js';
import { evaluatorFor, type QuotaEvaluator } from './evaluator/evaluators.js';
import {
  isZeroAmounts,
  maskAmounts,
  negateAmounts,
  subtractNonNegative,
  type ResourceAmounts,
} from './evaluator/resources.js';

export const resourceQuotaPluginName = 'ResourceQuota';

const quotaResource = { group: '', resource: 'resourcequotas' };

/** pkg/quota/v1/install/registry.go ignoredResources: virtual resources, and events, never counted. */
const ignoredResources: ReadonlySet<string> = new Set([
  '/bindings',
  '/componentstatuses',
  'authentication.k8s.io/tokenreviews',
  'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  '/events',
  'events.k8s.io/events',
]);

export interface ResourceQuotaAdmissionOptions {
  readonly resourceQuotas: Lister;
  /** resourcequotas/status. */
  readonly status: Updater;
  readonly now?: () => number;
}

interface ChargeRequest {
  readonly ctx: RequestContext;
  readonly a: Attributes;
  readonly delta: ResourceAmounts;
}

export class ResourceQuotaAdmission implements ValidationInterface {
  readonly #quotas: NamespacedLister<ResourceQuota>;
  readonly #status: Updater;
  readonly #now: () => number;
  /** The tail of each namespace's charges, so they run one after another. */
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #evaluators = new Map<string, QuotaEvaluator>();
  readonly handles = handlesOnly('CREATE', 'UPDATE');

  constructor(opts: ResourceQuotaAdmissionOptions) {
    this.#now = opts.now ?? Date.now;
    this.#quotas = new NamespacedLister<ResourceQuota>({ lister: opts.resourceQuotas, now: this.#now });
    this.#status = opts.status;
  }

  validate(ctx: RequestContext, a: Attributes): AdmissionResult {
    if (a.namespace === '' || a.object === null) return undefined;
    if (ignoredResources.has(`${a.resource.group}/${a.resource.resource}`)) return undefined;
    const evaluator = this.#evaluatorFor(a.resource.group, a.resource.resource);
    if (!evaluator.handles(a.operation, a.subresource)) return undefined;
    const quotas = this.#quotas;
    return withLookup(
      quotas.listNow(a.namespace),
      () => quotas.list(ctx, a.namespace),
      (found) => this.#validateAgainst(ctx, a, { evaluator, quotas: found }),
    );
  }

  /** The checks and the charge against the namespace's quotas: a promise only for a charge. */
  #validateAgainst(
    ctx: RequestContext,
    a: Attributes,
    of: { readonly evaluator: QuotaEvaluator; readonly quotas: readonly ResourceQuota[] },
  ): AdmissionResult {
    const { evaluator, quotas } = of;
    if (quotas.length === 0 || a.object === null) return undefined;
    const interesting = interestingQuotas(quotas, evaluator, a.object);
    if (interesting.length === 0) return undefined;
    for (const q of interesting) {
      const reason = precheck(q, evaluator, a.object);
      if (reason !== undefined) throw newAdmissionForbidden(a, reason);
    }
    const delta = this.#delta(evaluator, a);
    const bounded = new Set(interesting.flatMap((q) => Object.keys(q.status?.hard ?? {})));
    if (isZeroAmounts(maskAmounts(delta, bounded))) return undefined;
    if (a.dryRun) {
      for (const q of interesting) {
        const result = charge(q, delta);
        if (!result.ok) throw newAdmissionForbidden(a, result.message);
      }
      return undefined;
    }
    return this.#inTurn(a.namespace, () => this.#chargeAll({ ctx, a, delta }, interesting));
  }

  close(): void {
    this.#quotas.close();
  }

  /** Evaluators are made once per resource: every create of every resource asks for one. */
  #evaluatorFor(group: string, resource: string): QuotaEvaluator {
    const key = `${group}/${resource}`;
    let evaluator = this.#evaluators.get(key);
    if (evaluator === undefined) this.#evaluators.set(key, (evaluator = evaluatorFor(group, resource)));
    return evaluator;
  }

  /** What the request adds: the new object's usage, less the old object's on an update. */
  #delta(evaluator: QuotaEvaluator, a: Attributes): ResourceAmounts {
    const now = this.#now();
    const usage: ResourceAmounts =
      a.object === null ? new Map<string, never>() : evaluator.usage(a.object, now);
    if (a.operation !== 'UPDATE' || a.oldObject === null) return usage;
    return subtractNonNegative(usage, evaluator.usage(a.oldObject, now));
  }

  async #inTurn(namespace: string, fn: () => Promise<void>): Promise<void> {
    const before = this.#queues.get(namespace) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.#queues.set(namespace, tail);
    try {
      await run;
    } finally {
      if (this.#queues.get(namespace) === tail) this.#queues.delete(namespace);
    }
  }

  async #chargeAll(req: ChargeRequest, quotas: readonly ResourceQuota[]): Promise<void> {
    const charged: string[] = [];
    try {
      for (const q of quotas) {
        const name = q.metadata?.name ?? '';
        if (await this.#write(req, name)) charged.push(name);
      }
    } catch (err) {
      // What was already counted for this refused object is handed back.
      const refund = negateAmounts(req.delta);
      for (const name of charged) await this.#write({ ...req, delta: refund }, name).catch(() => undefined);
      throw err;
    }
  }

  /** Adds delta to one stored quota's status.used; false when the quota is gone. */
  async #write(req: ChargeRequest, name: string): Promise<boolean> {
    const { ctx, a, delta } = req;
    try {
      await this.#status.update(internalContext({ namespace: a.namespace, parent: ctx }), name, {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_c, current) => {
            if (current === null) return Promise.reject(newNotFound(quotaResource, name));
            const quota = current as ResourceQuota;
            const result = charge(quota, delta);
            if (!result.ok) return Promise.reject(newAdmissionForbidden(a, result.message));
            const next = deepCopyJSON(quota);
            if (result.used !== undefined) (next.status ??= {}).used = result.used;
            return Promise.resolve(next);
          },
        },
        options: {},
      });
      return true;
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') return false;
      throw err;
    }
  }
}
