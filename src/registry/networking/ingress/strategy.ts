// Ingress policy (pkg/registry/networking/ingress/strategy.go): status is kept apart from the
// spec, and the generation follows spec changes.
import type { Ingress } from '../../../api/networking/v1/ingress.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { warningsForIP } from '../ip-warnings.js';

/** The class annotation that spec.ingressClassName replaced. */
const annotationIngressClass = 'kubernetes.io/ingress.class';
import { validateIngressCreate, validateIngressStatus, validateIngressUpdate } from './validation.js';

export const ingressStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (_ctx, ingress) => {
    ingress.status = {};
  },
  validate: (_ctx, ingress) => validateIngressCreate(ingress),
  warningsOnCreate: (_ctx, ingress) =>
    ingress.metadata?.annotations?.[annotationIngressClass] === undefined
      ? []
      : [`annotation "${annotationIngressClass}" is deprecated, please use 'spec.ingressClassName' instead`],
  prepareForUpdate: (_ctx, ingress, old) => {
    if (old.status !== undefined) ingress.status = old.status;
    else delete ingress.status;
  },
  validateUpdate: (_ctx, ingress) => validateIngressUpdate(ingress),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<Ingress> & UpdateStrategy<Ingress>;

/** The status strategy's WarningsOnUpdate: load balancer IPs in non-standard forms. */
function ingressStatusWarnings(ingress: Ingress): string[] {
  const path = FieldPath.of('status', 'loadBalancer', 'ingress');
  return (ingress.status?.loadBalancer?.ingress ?? []).flatMap((lb, i) =>
    (lb.ip ?? '') === '' ? [] : warningsForIP(() => path.index(i), lb.ip ?? ''),
  );
}

/** ingresses/status: takes the status, keeps the spec. */
export const ingressStatusStrategy = {
  ...ingressStrategy,
  prepareForUpdate: (_ctx, ingress, old) => {
    if (old.spec !== undefined) ingress.spec = old.spec;
    else delete ingress.spec;
  },
  validateUpdate: (_ctx, ingress, old) => validateIngressStatus(ingress, old),
  warningsOnUpdate: (_ctx, ingress) => ingressStatusWarnings(ingress),
} satisfies UpdateStrategy<Ingress>;

export const ingressDeleteStrategy = {} satisfies DeleteStrategy<Ingress>;
