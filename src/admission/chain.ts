// The admission chain (k8s.io/apiserver/pkg/admission/chain.go): plugins in order, the first
// error ends the step. admit() runs the mutating plugins, validate() the validating ones. Each call
// is a step timed as kube's WithStepMetrics times it, and each plugin as WithControllerMetrics
// does: one clock read when the step begins and one as each plugin ends, a plugin's time being
// the gap since the read before, into series made once per chain.
import { groupResourceString, type GroupResource } from '../machinery/schema/group-resource.js';
import type { RequestContext } from '../registry/rest/context.js';
import { operations, type Attributes, type Operation } from './attributes.js';
import { isReinvocationRequester, ReinvocationContext, type ReinvocationRequester } from './reinvocation.js';
import {
  AdmissionMetrics,
  type AdmissionStepType,
  type Outcome,
  type OutcomeByOperation,
  type StepSeries,
} from './metrics/admission-metrics.js';
import {
  isMutationInterface,
  isValidationInterface,
  type AdmissionInterface,
  type AdmissionResult,
  type MutationInterface,
  type ValidationInterface,
} from './interfaces.js';

export interface NamedHandler {
  readonly name: string;
  readonly plugin: AdmissionInterface & { close?(): void };
}

/** One call of admit or validate on a chain. */
interface ChainRun {
  readonly phase: AdmissionStepType;
  readonly ctx: RequestContext;
  readonly attributes: Attributes;
  /** Each handler's series for the call's operation, by the handler's index. */
  readonly series: readonly Outcome[];
  /** The clock (performance.now()) when the last plugin ended, or the run began. */
  at: number;
}

/** Per operation, each handler's series, by the handler's index. */
type HandlerSeries = Readonly<Record<Operation, readonly Outcome[]>>;

/** A phase's series: the step's and its handlers'. */
interface PhaseSeries {
  readonly step: OutcomeByOperation<StepSeries>;
  readonly handlers: HandlerSeries;
}

export class AdmissionChain implements MutationInterface, ValidationInterface {
  readonly #handlers: readonly NamedHandler[];
  readonly #byResource = new Map<string, AdmissionChain>();
  #mutating: AdmissionChain | undefined;
  #validating: AdmissionChain | undefined;
  /** The plugins that may ask for a second run; usually none or MutatingAdmissionWebhook. */
  readonly #requesters: readonly ReinvocationRequester[];
  readonly #metrics: AdmissionMetrics;
  #admitSeries: PhaseSeries | undefined;
  #validateSeries: PhaseSeries | undefined;

  /** `metrics`: where the steps and plugins are timed; a chain of its own when absent. */
  constructor(handlers: readonly NamedHandler[], metrics: AdmissionMetrics = new AdmissionMetrics()) {
    this.#handlers = [...handlers];
    this.#requesters = this.#handlers.map((h) => h.plugin).filter(isReinvocationRequester);
    this.#metrics = metrics;
  }

  /** The plugin names in order, for logs and flags. */
  get names(): readonly string[] {
    return this.#handlers.map((h) => h.name);
  }

  /** The mutating plugins alone (kube's handlers take the two kinds apart); made once per chain. */
  mutationChain(): AdmissionChain {
    this.#mutating ??= new AdmissionChain(
      this.#handlers.filter((h) => isMutationInterface(h.plugin)),
      this.#metrics,
    );
    return this.#mutating;
  }

  /** The validating plugins alone. */
  validationChain(): AdmissionChain {
    this.#validating ??= new AdmissionChain(
      this.#handlers.filter((h) => isValidationInterface(h.plugin)),
      this.#metrics,
    );
    return this.#validating;
  }

  /** The plugins that may act on `resource` (see AdmissionInterface.resources), kept per resource. */
  forResource(resource: GroupResource): AdmissionChain {
    const key = groupResourceString(resource);
    let chain = this.#byResource.get(key);
    if (chain === undefined) {
      chain = new AdmissionChain(
        this.#handlers.filter((h) => h.plugin.resources?.has(key) ?? true),
        this.#metrics,
      );
      this.#byResource.set(key, chain);
    }
    return chain;
  }

  handles(operation: Operation): boolean {
    return this.#handlers.some((h) => h.plugin.handles(operation));
  }

  /**
   * The mutating plugins in order; once more when a plugin asks (kube's reinvoker). The context
   * is made only when a plugin may ask for this call, so most calls make none. Plugins that finish
   * at once run one after the other without a promise; the first that returns one continues the
   * chain when it settles.
   */
  admit(ctx: RequestContext, attributes: Attributes): AdmissionResult {
    if (
      attributes.reinvocation !== undefined ||
      !this.#requesters.some((p) => p.mayRequestReinvocation(attributes))
    ) {
      return this.#step(this.#run({ phase: 'admit', ctx, attributes }));
    }
    return this.#admitTwice(ctx, attributes);
  }

  /** The step's time covers both runs, as kube's step metrics wrap its reinvoker. */
  async #admitTwice(ctx: RequestContext, attributes: Attributes): Promise<void> {
    const series = this.#phaseSeries('admit').step[attributes.operation];
    const start = performance.now();
    const reinvocation = new ReinvocationContext();
    const withContext: Attributes = { ...attributes, reinvocation };
    try {
      await this.#runFrom(this.#run({ phase: 'admit', ctx, attributes: withContext }), 0);
      if (reinvocation.shouldReinvoke) {
        reinvocation.isReinvoke = true;
        await this.#runFrom(this.#run({ phase: 'admit', ctx, attributes: withContext }), 0);
      }
    } catch (err) {
      series.rejected.observe((performance.now() - start) / 1000);
      throw err;
    }
    series.allowed.observe((performance.now() - start) / 1000);
  }

  validate(ctx: RequestContext, attributes: Attributes): AdmissionResult {
    return this.#step(this.#run({ phase: 'validate', ctx, attributes }));
  }

  /** A run from the first plugin, its clock started. */
  #run(r: { phase: AdmissionStepType; ctx: RequestContext; attributes: Attributes }): ChainRun {
    const series = this.#phaseSeries(r.phase).handlers[r.attributes.operation];
    return { phase: r.phase, ctx: r.ctx, attributes: r.attributes, series, at: performance.now() };
  }

  /** The run as one step: timed from its start to its last plugin's end. */
  #step(run: ChainRun): AdmissionResult {
    const series = this.#phaseSeries(run.phase).step[run.attributes.operation];
    const start = run.at;
    let pending: AdmissionResult;
    try {
      pending = this.#runFrom(run, 0);
    } catch (err) {
      series.rejected.observe((run.at - start) / 1000);
      throw err;
    }
    if (pending === undefined) {
      series.allowed.observe((run.at - start) / 1000);
      return undefined;
    }
    return pending.then(
      () => {
        series.allowed.observe((run.at - start) / 1000);
      },
      (err: unknown) => {
        series.rejected.observe((run.at - start) / 1000);
        throw err;
      },
    );
  }

  /** The plugins of the run's phase from the handler at `first` on, as admit and validate run them. */
  #runFrom(run: ChainRun, first: number): AdmissionResult {
    const { phase, ctx, attributes } = run;
    const handlers = this.#handlers;
    for (let i = first; i < handlers.length; i++) {
      const plugin = (handlers[i] as NamedHandler).plugin;
      if (!plugin.handles(attributes.operation)) continue;
      let pending: AdmissionResult;
      try {
        if (phase === 'admit') {
          if (!isMutationInterface(plugin)) continue;
          pending = plugin.admit(ctx, attributes);
        } else {
          if (!isValidationInterface(plugin)) continue;
          pending = plugin.validate(ctx, attributes);
        }
      } catch (err) {
        ended(run, i, true);
        throw err;
      }
      if (pending !== undefined)
        return pending.then(
          () => {
            ended(run, i, false);
            return this.#runFrom(run, i + 1);
          },
          (err: unknown) => {
            ended(run, i, true);
            throw err;
          },
        );
      ended(run, i, false);
    }
    return undefined;
  }

  /** The phase's series, made at its first call. */
  #phaseSeries(phase: AdmissionStepType): PhaseSeries {
    if (phase === 'admit') return (this.#admitSeries ??= this.#makeSeries(phase));
    return (this.#validateSeries ??= this.#makeSeries(phase));
  }

  #makeSeries(phase: AdmissionStepType): PhaseSeries {
    const byHandler = this.#handlers.map((h) => this.#metrics.controllerOutcomes(h.name, phase));
    const handlers = {} as Record<Operation, Outcome[]>;
    for (const op of operations) handlers[op] = byHandler.map((s) => s[op]);
    return { step: this.#metrics.stepOutcomes(phase), handlers };
  }

  /** Closes the plugins; the chains made from this one share them. */
  close(): void {
    for (const { plugin } of this.#handlers) plugin.close?.();
  }
}

/** Handler `i` of the run ended now: its time is the gap since the run's last clock read. */
function ended(run: ChainRun, i: number, rejected: boolean): void {
  const now = performance.now();
  const s = run.series[i] as Outcome;
  (rejected ? s.rejected : s.allowed).observe((now - run.at) / 1000);
  run.at = now;
}
