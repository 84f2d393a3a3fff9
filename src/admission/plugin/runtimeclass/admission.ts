// RuntimeClass (plugin/pkg/admission/runtimeclass/admission.go), enabled by default in
// kube-apiserver: a new pod naming a runtimeClassName takes the class's overhead.podFixed as its
// spec.overhead, and the class's scheduling constraints: its nodeSelector merged into the pod's (a
// key the pod sets to another value is refused) and its tolerations merged with the pod's
// (tolerations.MergeTolerations, which keeps only the wider of two overlapping ones). An unknown
// class is refused; so is a pod whose overhead differs from the class's, or that sets an overhead
// when the class defines none (validation, after every mutating plugin).
import type { Pod, Toleration } from '../../../api/core/v1/pod.js';
import type { RuntimeClass } from '../../../api/node/v1/runtime-class.js';
import { memberOf } from '../../../machinery/json/set-member.js';
import { compareQuantities, parseQuantity } from '../../../machinery/quantity/quantity.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import {
  handlesOnly,
  type AdmissionResult,
  withLookup,
  type MutationInterface,
  type ValidationInterface,
} from '../../interfaces.js';
import type { ClassReader } from '../class-reader.js';

export const runtimeClassPluginName = 'RuntimeClass';

export interface RuntimeClassOptions {
  readonly runtimeClasses: ClassReader<RuntimeClass>;
}

const overheadMismatch = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

function podOf(a: Attributes): Pod | undefined {
  if (a.resource.group !== '' || a.resource.resource !== 'pods' || a.subresource !== '') return undefined;
  return a.object === null ? undefined : (a.object as Pod);
}

/** apiequality.Semantic.DeepEqual of two resource lists: the same names, quantities equal in value. */
function sameResources(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    const y = b[k];
    if (y === undefined) return false;
    const x = a[k] ?? '';
    const px = parseQuantity(x);
    const py = parseQuantity(y);
    return px.ok && py.ok ? compareQuantities(px.quantity, py.quantity) === 0 : x === y;
  });
}

const sameToleration = (a: Toleration, b: Toleration): boolean =>
  (a.key ?? '') === (b.key ?? '') &&
  (a.operator ?? '') === (b.operator ?? '') &&
  (a.value ?? '') === (b.value ?? '') &&
  (a.effect ?? '') === (b.effect ?? '') &&
  a.tolerationSeconds === b.tolerationSeconds;

/** isSuperset: whether `wide` tolerates everything `t` does. */
function isSuperset(wide: Toleration, t: Toleration): boolean {
  if (sameToleration(wide, t)) return true;
  const wideKey = wide.key ?? '';
  if ((t.key ?? '') !== wideKey && (wideKey !== '' || wide.operator !== 'Exists')) return false;
  const wideEffect = wide.effect ?? '';
  if ((t.effect ?? '') !== wideEffect && wideEffect !== '') return false;
  if (wideEffect === 'NoExecute' && wide.tolerationSeconds !== undefined) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds > wide.tolerationSeconds) return false;
  }
  switch (wide.operator ?? '') {
    case 'Equal':
    case '':
      return t.operator === 'Equal' && (t.value ?? '') === (wide.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** tolerations.MergeTolerations: both lists, less those another one covers (of equal ones, the first). */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((later) => !sameToleration(t, later) && isSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}

export class RuntimeClassAdmission implements MutationInterface, ValidationInterface {
  readonly #classes: ClassReader<RuntimeClass>;
  readonly handles = handlesOnly('CREATE');
  readonly resources: ReadonlySet<string> = new Set(['pods']);

  constructor(opts: RuntimeClassOptions) {
    this.#classes = opts.runtimeClasses;
  }

  /** Stops the class informer. */
  close(): void {
    this.#classes.close();
  }

  admit(ctx: RequestContext, a: Attributes): AdmissionResult {
    const pod = podOf(a);
    const name = pod?.spec?.runtimeClassName;
    if (pod === undefined || name === undefined) return undefined;
    return this.#withClass(ctx, a, {
      name,
      use: (rc) => {
        admitWith(a, pod, rc);
      },
    });
  }

  validate(ctx: RequestContext, a: Attributes): AdmissionResult {
    const pod = podOf(a);
    if (pod?.spec === undefined) return undefined;
    const name = pod.spec.runtimeClassName;
    if (name === undefined) {
      validateWith(a, pod, undefined);
      return undefined;
    }
    return this.#withClass(ctx, a, {
      name,
      use: (rc) => {
        validateWith(a, pod, rc);
      },
    });
  }

  /** `use` with the named class: at once when the informer holds it, else once it is read. */
  #withClass(
    ctx: RequestContext,
    a: Attributes,
    of: { readonly name: string; readonly use: (rc: RuntimeClass) => void },
  ): AdmissionResult {
    const { name, use } = of;
    return withLookup(this.#classes.getNow(name), () => this.#classOf(ctx, a, name), use);
  }

  // prepareObjects: the named class from the cache, else storage.
  async #classOf(ctx: RequestContext, a: Attributes, name: string): Promise<RuntimeClass> {
    const rc = await this.#classes.get(name, ctx);
    if (rc === undefined)
      throw newAdmissionForbidden(a, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
    return rc;
  }
}

/** The class's overhead and scheduling written into the pod (kube's mutation half). */
function admitWith(a: Attributes, pod: Pod, rc: RuntimeClass): void {
  const spec = pod.spec;
  if (spec === undefined) return;
  const podFixed = rc.overhead?.podFixed;
  if (rc.overhead !== undefined) {
    if (spec.overhead !== undefined && !sameResources(podFixed ?? {}, spec.overhead))
      throw newAdmissionForbidden(a, overheadMismatch);
    if (podFixed === undefined) delete spec.overhead;
    else spec.overhead = { ...podFixed };
  }
  const scheduling = rc.scheduling;
  if (scheduling === undefined) return;
  const selector = scheduling.nodeSelector;
  if (spec.nodeSelector === undefined) {
    if (selector !== undefined) spec.nodeSelector = { ...selector };
  } else {
    for (const [key, value] of Object.entries(selector ?? {})) {
      const own = memberOf(spec.nodeSelector, key);
      if (own !== undefined && own !== value) {
        throw newAdmissionForbidden(
          a,
          `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${own}`,
        );
      }
      spec.nodeSelector[key] = value;
    }
  }
  const merged = mergeTolerations(spec.tolerations ?? [], scheduling.tolerations ?? []);
  if (merged.length > 0 || spec.tolerations !== undefined) spec.tolerations = merged;
}

/** The pod's overhead checked against its class's (kube's validation half). */
function validateWith(a: Attributes, pod: Pod, rc: RuntimeClass | undefined): void {
  const overhead = pod.spec?.overhead;
  if (rc?.overhead !== undefined) {
    // Semantic.DeepEqual takes a nil map and an empty one as equal.
    if (!sameResources(rc.overhead.podFixed ?? {}, overhead ?? {}))
      throw newAdmissionForbidden(a, overheadMismatch);
  } else if (overhead !== undefined) {
    throw newAdmissionForbidden(
      a,
      'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    );
  }
}
