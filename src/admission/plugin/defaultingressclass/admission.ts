// DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass/admission.go), enabled by
// default in kube-apiserver: a new Ingress with no spec.ingressClassName and no
// kubernetes.io/ingress.class annotation gets the IngressClass annotated
// ingressclass.kubernetes.io/is-default-class: "true"; of several, the newest, then the first by
// name. No default class: unchanged.
import type { Ingress } from '../../../api/networking/v1/ingress.js';
import type { IngressClass } from '../../../api/networking/v1/ingress-class.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type MutationInterface } from '../../interfaces.js';
import { newestDefault, type ClassReader } from '../class-reader.js';

export const defaultIngressClassPluginName = 'DefaultIngressClass';

/** networkingv1.AnnotationIsDefaultIngressClass. */
export const isDefaultIngressClassAnnotation = 'ingressclass.kubernetes.io/is-default-class';
/** networkingv1beta1.AnnotationIngressClass: the class an ingress named before ingressClassName. */
export const ingressClassAnnotation = 'kubernetes.io/ingress.class';

export interface DefaultIngressClassOptions {
  readonly ingressClasses: ClassReader<IngressClass>;
}

export class DefaultIngressClass implements MutationInterface {
  readonly #classes: ClassReader<IngressClass>;
  readonly handles = handlesOnly('CREATE');
  readonly resources: ReadonlySet<string> = new Set(['ingresses.networking.k8s.io']);

  constructor(opts: DefaultIngressClassOptions) {
    this.#classes = opts.ingressClasses;
  }

  /** Stops the class informer. */
  close(): void {
    this.#classes.close();
  }

  async admit(ctx: RequestContext, a: Attributes): Promise<void> {
    if (a.resource.group !== 'networking.k8s.io' || a.resource.resource !== 'ingresses') return;
    if (a.subresource !== '' || a.object === null) return;
    const ingress = a.object as Ingress;
    if (ingress.spec?.ingressClassName !== undefined) return;
    if (Object.prototype.hasOwnProperty.call(ingress.metadata?.annotations ?? {}, ingressClassAnnotation))
      return;
    let classes: readonly IngressClass[];
    try {
      classes = await this.#classes.list(ctx);
    } catch (err) {
      throw newAdmissionForbidden(a, err);
    }
    const def = newestDefault(
      classes.filter((c) => c.metadata?.annotations?.[isDefaultIngressClassAnnotation] === 'true'),
    );
    if (def === undefined) return;
    (ingress.spec ??= {}).ingressClassName = def.metadata?.name ?? '';
  }
}
