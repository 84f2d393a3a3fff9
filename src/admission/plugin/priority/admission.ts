// Priority (plugin/pkg/admission/priority/admission.go), enabled by default in kube-apiserver: a new
// pod's spec.priority comes from the PriorityClass it names, or from the class marked globalDefault
// (whose name it then takes), else 0; the class's preemptionPolicy comes along (PreemptLowerPriority
// when no class applies). A pod that names an unknown class, or sets a priority or preemption policy
// that differs from the computed one, is refused. On update the stored values are carried over when
// the new object leaves them out, as validation forbids changing them. PriorityClass's own check (one
// globalDefault only) is done by its storage in Capstan.
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import type { PriorityClass } from '../../../api/scheduling/v1/priority-class.js';
import { newInternalError } from '../../../machinery/errors/index.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type AdmissionResult, withLookup, type MutationInterface } from '../../interfaces.js';
import type { ClassReader } from '../class-reader.js';

export const priorityPluginName = 'Priority';

/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
export const defaultPriorityWhenNoDefaultClassExists = 0;
/** The preemption policy of a pod no class applies to. */
export const preemptLowerPriority = 'PreemptLowerPriority';

export interface PriorityOptions {
  readonly priorityClasses: ClassReader<PriorityClass>;
}

function podOf(a: Attributes): Pod | undefined {
  if (a.resource.group !== '' || a.resource.resource !== 'pods' || a.subresource !== '') return undefined;
  return a.object === null ? undefined : (a.object as Pod);
}

interface Established {
  readonly name: string;
  readonly priority: number;
  readonly preemptionPolicy: string | undefined;
}

export class PriorityAdmission implements MutationInterface {
  readonly #classes: ClassReader<PriorityClass>;
  readonly handles = handlesOnly('CREATE', 'UPDATE', 'DELETE');
  readonly resources: ReadonlySet<string> = new Set(['pods']);

  constructor(opts: PriorityOptions) {
    this.#classes = opts.priorityClasses;
  }

  /** Stops the class informer. */
  close(): void {
    this.#classes.close();
  }

  admit(ctx: RequestContext, a: Attributes): AdmissionResult {
    const pod = podOf(a);
    const spec = pod?.spec;
    if (spec === undefined) return undefined;
    if (a.operation === 'UPDATE') {
      const old = (a.oldObject as Pod | null)?.spec;
      if (spec.priority === undefined && old?.priority !== undefined) spec.priority = old.priority;
      if (spec.preemptionPolicy === undefined && old?.preemptionPolicy !== undefined)
        spec.preemptionPolicy = old.preemptionPolicy;
      return undefined;
    }
    if (a.operation !== 'CREATE') return undefined;
    const name = spec.priorityClassName ?? '';
    return withLookup(
      this.#establishNow(name),
      () => this.#establish(ctx, a, name),
      (found) => {
        applyPriority(a, spec, found);
      },
    );
  }

  /** What #establish finds, at once when the class informer has listed; else undefined. */
  #establishNow(name: string): Established | undefined {
    if (name === '') {
      const classes = this.#classes.listNow();
      return classes === undefined ? undefined : defaultAmong(classes);
    }
    const pc = this.#classes.getNow(name);
    return pc === undefined ? undefined : { name, priority: pc.value, preemptionPolicy: pc.preemptionPolicy };
  }

  // establishPriority: the named class, or the default one.
  async #establish(ctx: RequestContext, a: Attributes, name: string): Promise<Established> {
    if (name === '') return this.#defaultPriority(ctx);
    let pc: PriorityClass | undefined;
    try {
      pc = await this.#classes.get(name, ctx);
    } catch (err) {
      throw newInternalError(
        new Error(`failed to resolve PriorityClass with name ${name}: ${errorText(err)}`),
      );
    }
    if (pc === undefined) throw newAdmissionForbidden(a, `no PriorityClass with name ${name} was found`);
    return { name, priority: pc.value, preemptionPolicy: pc.preemptionPolicy };
  }

  async #defaultPriority(ctx: RequestContext): Promise<Established> {
    let classes: readonly PriorityClass[];
    try {
      classes = await this.#classes.list(ctx);
    } catch (err) {
      throw newInternalError(
        new Error(`error occurred while retrieving default priority class: ${errorText(err)}`),
      );
    }
    return defaultAmong(classes);
  }
}

// getDefaultPriority: the globalDefault class with the lowest value (several only after a race).
function defaultAmong(classes: readonly PriorityClass[]): Established {
  let found: PriorityClass | undefined;
  for (const pc of classes) {
    if (pc.globalDefault === true && (found === undefined || found.value > pc.value)) found = pc;
  }
  if (found === undefined) {
    return {
      name: '',
      priority: defaultPriorityWhenNoDefaultClassExists,
      preemptionPolicy: preemptLowerPriority,
    };
  }
  return {
    name: found.metadata?.name ?? '',
    priority: found.value,
    preemptionPolicy: found.preemptionPolicy,
  };
}

/** The pod's priority and preemption policy from its class; refused when it set others itself. */
function applyPriority(a: Attributes, spec: PodSpec, found: Established): void {
  if (found.name !== '') spec.priorityClassName = found.name;
  if (spec.priority !== undefined && spec.priority !== found.priority) {
    throw newAdmissionForbidden(
      a,
      `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${found.priority} from the given PriorityClass name`,
    );
  }
  spec.priority = found.priority;
  const policy = found.preemptionPolicy;
  if (policy === undefined) return;
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy) {
    throw newAdmissionForbidden(
      a,
      `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
    );
  }
  spec.preemptionPolicy = policy;
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
