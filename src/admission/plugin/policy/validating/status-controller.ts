// kube-controller-manager's validatingadmissionpolicy-status controller
// (pkg/controller/validatingadmissionpolicystatus/controller.go), run beside the plugin: a policy
// whose generation is newer than status.observedGeneration gets the type checking warnings of that
// generation and observedGeneration set; the controller sets no conditions.
import type { ValidatingAdmissionPolicy } from '../../../../api/admissionregistration/v1/policy.js';
import type { KubeObject } from '../../../../api/meta.js';
import { deepCopyJSON } from '../../../../machinery/json/deep-copy.js';
import { loadCel } from '../../../../registry/apiextensions/customresource/cel/load.js';
import type { Updater } from '../../../../registry/rest/capabilities.js';
import { internalContext } from '../../../../registry/rest/context.js';
import { typeCheckPolicy, type TypeResolver } from './type-checking.js';
import { stopReason } from '../../../../machinery/errors/stop-reason.js';

export interface StatusControllerOptions {
  /** validatingadmissionpolicies/status. */
  readonly status: Updater;
  readonly types: TypeResolver;
  /** Told of failed writes (they are retried on the policy's next event). */
  readonly onError?: (name: string, err: unknown) => void;
}

const needsStatus = (p: ValidatingAdmissionPolicy): boolean =>
  (p.metadata?.generation ?? 0) > (p.status?.observedGeneration ?? 0);

export class PolicyStatusController {
  readonly #opts: StatusControllerOptions;
  readonly #queued = new Set<string>();
  readonly #abort = new AbortController();
  #running: Promise<void> = Promise.resolve();

  constructor(opts: StatusControllerOptions) {
    this.#opts = opts;
  }

  /** Queues the policy when its status lags its generation; writes run one at a time. */
  enqueue(policy: ValidatingAdmissionPolicy): void {
    const name = policy.metadata?.name ?? '';
    if (!needsStatus(policy) || this.#queued.has(name) || this.#abort.signal.aborted) return;
    this.#queued.add(name);
    this.#running = this.#running.then(() => this.#reconcile(name));
  }

  /** Resolves once every queued write has run (tests). */
  idle(): Promise<void> {
    return this.#running;
  }

  async close(): Promise<void> {
    this.#abort.abort(stopReason);
    await this.#running;
  }

  #stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  async #reconcile(name: string): Promise<void> {
    this.#queued.delete(name);
    if (this.#abort.signal.aborted) return;
    try {
      const lib = await loadCel();
      await this.#opts.status.update(internalContext({ signal: this.#abort.signal }), name, {
        options: {},
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_ctx, old: KubeObject | null) => {
            if (old === null) throw new Error(`validatingadmissionpolicy ${name} is gone`);
            const policy = deepCopyJSON(old) as ValidatingAdmissionPolicy;
            if (!needsStatus(policy)) return Promise.resolve(policy);
            const warnings = typeCheckPolicy(lib, policy, this.#opts.types);
            policy.status = {
              ...policy.status,
              observedGeneration: policy.metadata?.generation ?? 0,
              typeChecking: warnings.length === 0 ? {} : { expressionWarnings: warnings },
            };
            return Promise.resolve(policy);
          },
        },
      });
    } catch (err) {
      if (!this.#stopped()) this.#opts.onError?.(name, err);
    }
  }
}
