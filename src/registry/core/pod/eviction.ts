// pods/eviction (EvictionREST in pkg/registry/core/pod/storage/eviction.go): deletes a pod unless
// that would break the PodDisruptionBudget covering it, which the eviction charges for the
// disruption (status.disruptionsAllowed down by one, the pod listed in status.disruptedPods).
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodCondition } from '../../../api/core/v1/pod-status.js';
import type { KubeObject } from '../../../api/meta.js';
import type { Eviction } from '../../../api/policy/v1/eviction.js';
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import {
  isStatusError,
  newBadRequest,
  newInternalError,
  newNotFound,
  newTimeoutError,
} from '../../../machinery/errors/index.js';
import { nowTimestamp } from '../../generic/object-meta.js';
import type { Store } from '../../generic/store.js';
import type {
  Getter,
  Lister,
  NamedCreater,
  Storage,
  Updater,
  ValidateObjectFunc,
} from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import { isDryRun, propagationPolicies, type CreateOptions, type DeleteOptions } from '../../rest/options.js';
import { checkAndDecrement, covers, moreThanOneBudget, stillProcessing } from './disruption-budget.js';
import { podStatusStrategy } from './strategy.js';
import { checkDeletePreconditions } from '../../generic/before-delete.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';

/** The PodDisruptionBudgets an eviction reads and charges: the resource and its status subresource. */
export interface DisruptionBudgets {
  readonly budgets: Getter & Pick<Lister, 'list'>;
  readonly status: Updater;
}

export interface EvictionRESTOptions {
  /** The pods store (shared with pods; the eviction writes the pod status through it). */
  readonly pods: Store<Pod>;
  /**
   * The budgets, looked up at each eviction: the policy group is built after the core group.
   * Without them (poddisruptionbudgets not served) an eviction is a plain delete.
   */
  readonly disruptionBudgets?: () => DisruptionBudgets | undefined;
  /** Pause between retries after a conflict (kube's EvictionsRetry: 500 ms, 20 steps). */
  readonly retryDelayMs?: number;
}

const retrySteps = 20;
const podKind = { group: '', kind: 'Pod' } as const;
const podResource = { group: '', resource: 'pods' } as const;
const budgetResource = { group: 'policy', resource: 'poddisruptionbudgets' } as const;

const isConflict = (err: unknown): boolean => isStatusError(err) && err.reason === 'Conflict';
const rvUnset = (o: DeleteOptions): boolean => o.preconditions?.resourceVersion === undefined;
const success = (): KubeObject => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Retries `fn` while `retry` says so, up to kube's 20 steps; the last error is kept. */
async function retryOn<T>(
  opts: { retry: (err: unknown) => boolean; delayMs: number },
  fn: () => Promise<T>,
): Promise<T> {
  for (let step = 1; ; step++) {
    try {
      return await fn();
    } catch (err) {
      if (step >= retrySteps || !opts.retry(err)) throw err;
    }
    await sleep(opts.delayMs * (1 + Math.random() * 0.1));
  }
}

/** The Eviction's deleteOptions as the pods store takes them. */
function deleteOptionsOf(eviction: Eviction): DeleteOptions {
  const body = eviction.deleteOptions ?? {};
  const out: DeleteOptions = {};
  if (body.dryRun !== undefined && body.dryRun.length > 0) out.dryRun = body.dryRun;
  if (body.gracePeriodSeconds !== undefined) out.gracePeriodSeconds = body.gracePeriodSeconds;
  if (body.preconditions !== undefined) out.preconditions = { ...body.preconditions };
  const policy = propagationPolicies.find((p) => p === body.propagationPolicy);
  if (policy !== undefined) out.propagationPolicy = policy;
  if (body.orphanDependents !== undefined) out.orphanDependents = body.orphanDependents;
  return out;
}

/** propagateDryRun: the request's dryRun goes into the delete options; the two must agree. */
function propagateDryRun(eviction: Eviction, options: CreateOptions): DeleteOptions {
  const out = deleteOptionsOf(eviction);
  const fromRequest = options.dryRun ?? [];
  if (out.dryRun === undefined) {
    if (fromRequest.length > 0) out.dryRun = fromRequest;
    return out;
  }
  if (fromRequest.length > 0 && fromRequest.join('\u0000') !== out.dryRun.join('\u0000')) {
    throw newInternalError(
      `Non-matching dry-run options in request and content: [${fromRequest.join(' ')}] and [${out.dryRun.join(' ')}]`,
    );
  }
  return out;
}

const withResourceVersion = (o: DeleteOptions, resourceVersion: string): DeleteOptions => ({
  ...o,
  preconditions: { ...o.preconditions, resourceVersion },
});

const phaseOf = (pod: Pod): string => pod.status?.phase ?? '';
const terminal = (pod: Pod): boolean => phaseOf(pod) === 'Succeeded' || phaseOf(pod) === 'Failed';
const deleting = (pod: Pod): boolean => (pod.metadata?.deletionTimestamp ?? '') !== '';

/** canIgnorePDB: finished, pending and terminating pods are deleted without asking any budget. */
const canIgnorePDB = (pod: Pod): boolean => terminal(pod) || phaseOf(pod) === 'Pending' || deleting(pod);

/** shouldEnforceResourceVersion: the delete must not race a pod becoming ready. */
const shouldEnforceResourceVersion = (pod: Pod): boolean => !terminal(pod) && !deleting(pod);

const isPodReady = (pod: Pod): boolean =>
  (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** podutil.UpdatePodCondition for DisruptionTarget: the transition time moves only with the status. */
function setDisruptionTarget(pod: Pod, nowMs: number): void {
  const wanted: PodCondition = {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
    lastTransitionTime: nowTimestamp(nowMs),
  };
  const status = (pod.status ??= {});
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === wanted.type);
  const old = conditions[i];
  if (old === undefined) conditions.push(wanted);
  else {
    const since = old.status === wanted.status ? old.lastTransitionTime : wanted.lastTransitionTime;
    conditions[i] = { ...wanted, ...(since !== undefined ? { lastTransitionTime: since } : {}) };
  }
  status.conditions = conditions;
}

/** POST pods/<name>/eviction: a NamedCreater whose body is a policy/v1 (or v1beta1) Eviction. */
export class EvictionREST implements Storage, NamedCreater {
  readonly #pods: Store<Pod>;
  readonly #podStatus: Store<Pod>;
  readonly #budgets: () => DisruptionBudgets | undefined;
  readonly #delayMs: number;

  constructor(opts: EvictionRESTOptions) {
    this.#pods = opts.pods;
    // Kube's eviction writes through the status store: the DisruptionTarget condition is status.
    this.#podStatus = opts.pods.withStrategies({ updateStrategy: podStatusStrategy });
    this.#budgets = opts.disruptionBudgets ?? (() => undefined);
    this.#delayMs = opts.retryDelayMs ?? 500;
  }
  newObject(): Eviction {
    return { apiVersion: 'policy/v1', kind: 'Eviction' };
  }
  destroy(): void {
    // Shared with the pods storage, which releases it.
  }
  /** GroupVersionAcceptor: policy/v1beta1 Evictions are taken as well. */
  acceptsGroupVersion(gv: { group: string; version: string }): boolean {
    return gv.group === 'policy' && (gv.version === 'v1' || gv.version === 'v1beta1');
  }

  async createNamed(
    ctx: RequestContext,
    name: string,
    req: { obj: KubeObject; options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject> {
    const eviction = req.obj as Eviction;
    if (name !== (eviction.metadata?.name ?? ''))
      throw newBadRequest('name in URL does not match name in Eviction object');
    const original = propagateDryRun(eviction, req.options);
    if (req.validate !== undefined) await req.validate(ctx, deepCopyJSON(eviction));

    const pod = await this.#deleteIfPDBIgnorable(ctx, name, original);
    if (pod === 'deleted') return success();

    const budgets = this.#budgets();
    const outcome =
      budgets === undefined
        ? { pdbName: '', unhealthy: false }
        : await this.#charge(ctx, { pod, budgets, original });
    // An unhealthy pod goes only if it has not turned ready since: its resourceVersion is a precondition.
    const options = outcome.unhealthy
      ? withResourceVersion(original, pod.metadata?.resourceVersion ?? '')
      : original;
    try {
      await this.#addConditionAndDelete(ctx, name, options);
    } catch (err) {
      if (isConflict(err) && outcome.unhealthy && rvUnset(original)) throw stillProcessing(outcome.pdbName);
      throw err;
    }
    return success();
  }

  /** The first step: a pod whose budget does not matter is deleted; otherwise it is returned. */
  async #deleteIfPDBIgnorable(
    ctx: RequestContext,
    name: string,
    original: DeleteOptions,
  ): Promise<Pod | 'deleted'> {
    // A resourceVersion the client set is its own precondition: a conflict then is final.
    const retry = rvUnset(original) ? isConflict : (): boolean => false;
    return retryOn({ retry, delayMs: this.#delayMs }, async () => {
      const pod = await this.#pods.get(ctx, name, {});
      if (!canIgnorePDB(pod)) return pod;
      const options =
        shouldEnforceResourceVersion(pod) && rvUnset(original)
          ? withResourceVersion(original, pod.metadata?.resourceVersion ?? '')
          : original;
      await this.#addConditionAndDelete(ctx, name, options);
      return 'deleted' as const;
    });
  }

  /**
   * The budget step: none or one budget may cover the pod. An unready pod is let go without a
   * charge when the budget's policy allows (`unhealthy`); otherwise the budget is charged.
   */
  async #charge(
    ctx: RequestContext,
    req: { pod: Pod; budgets: DisruptionBudgets; original: DeleteOptions },
  ): Promise<{ pdbName: string; unhealthy: boolean }> {
    const { pod, budgets, original } = req;
    const list = await budgets.budgets.list(ctx, {});
    const matching = (list.items as PodDisruptionBudget[]).filter((pdb) => covers(pdb, pod));
    if (matching.length > 1) throw moreThanOneBudget();
    const first = matching[0];
    if (first === undefined) return { pdbName: '', unhealthy: false };
    const pdbName = first.metadata?.name ?? '';
    if (!isPodReady(pod)) {
      if (first.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return { pdbName, unhealthy: true };
      const current = first.status?.currentHealthy ?? 0;
      const desired = first.status?.desiredHealthy ?? 0;
      if (current >= desired && desired > 0) return { pdbName, unhealthy: true };
    }
    const podName = pod.metadata?.name ?? '';
    if (isDryRun(original.dryRun)) {
      checkAndDecrement(first, { podName, dryRun: true, nowMs: this.#pods.core.clock.now() });
      return { pdbName, unhealthy: false };
    }
    try {
      // A guaranteed update: a conflict re-reads the budget and checks it again.
      await budgets.status.update(ctx, pdbName, {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_ctx, current) => {
            if (current === null) throw newNotFound(budgetResource, pdbName);
            return Promise.resolve(
              checkAndDecrement(current as PodDisruptionBudget, {
                podName,
                dryRun: false,
                nowMs: this.#pods.core.clock.now(),
              }),
            );
          },
        },
        options: {},
      });
    } catch (err) {
      if (isConflict(err))
        throw newTimeoutError(`couldn't update PodDisruptionBudget "${pdbName}" due to conflicts`, 10);
      throw err;
    }
    return { pdbName, unhealthy: false };
  }

  /** addConditionAndDeletePod: DisruptionTarget on the pod's status first (not on a dry run). */
  async #addConditionAndDelete(ctx: RequestContext, name: string, options: DeleteOptions): Promise<void> {
    let opts = options;
    if (!isDryRun(options.dryRun)) {
      const updated = await this.#podStatus.update(ctx, name, {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_ctx, current) => {
            if (current === null) throw newNotFound(podResource, name);
            const pod = deepCopyJSON(current) as Pod;
            checkDeletePreconditions(podKind, pod, options.preconditions);
            setDisruptionTarget(pod, this.#pods.core.clock.now());
            return Promise.resolve(pod);
          },
        },
        options: {},
        forceAllowCreate: false,
      });
      // The condition bumped the resourceVersion the caller's precondition named.
      if (!rvUnset(options))
        opts = withResourceVersion(options, updated.object.metadata?.resourceVersion ?? '');
    }
    await this.#pods.delete(ctx, name, { options: opts });
  }
}
