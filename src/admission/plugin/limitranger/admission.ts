// LimitRanger (plugin/pkg/admission/limitranger/admission.go): a new pod's containers and init
// containers get the default limits and requests of the namespace's LimitRanges (annotated under
// kubernetes.io/limit-ranger), then pods and persistent volume claims are held to the ranges' min,
// max and maxLimitRequestRatio for Container, Pod and PersistentVolumeClaim. Pod updates are left
// alone: a pod's containers and their resources cannot change there.
import type { Container } from '../../../api/core/v1/container.js';
import type { LimitRange, LimitRangeItem } from '../../../api/core/v1/limit-range.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { PodSpec } from '../../../api/core/v1/pod.js';
import type { KubeObject } from '../../../api/meta.js';
import { parseQuantity } from '../../../machinery/quantity/quantity.js';
import type { Lister } from '../../../registry/rest/capabilities.js';
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
import { NamespacedLister } from '../namespaced-lister.js';
import { amountsOf, containerAmounts, podAmounts, type ResourceAmounts } from '../pod-resources.js';
import {
  aggregateMessage,
  limitRequestRatioConstraint,
  maxConstraint,
  maxRequestConstraint,
  minConstraint,
  type ConstraintInput,
} from './constraints.js';

export const limitRangerPluginName = 'LimitRanger';
export const limitRangerAnnotation = 'kubernetes.io/limit-ranger';

type Check = (c: ConstraintInput) => string | undefined;

interface PodLike extends KubeObject {
  // Mutating admission runs before validation: nothing in the spec can be relied on yet.
  spec?: Partial<PodSpec>;
}

/**
 * SupportsAttributes: pods on create and on a resize (pods/resize, which changes their containers'
 * resources), claims on create and update, no other subresources.
 */
function supports(a: Attributes): 'pod' | 'claim' | undefined {
  if (a.resource.group !== '') return undefined;
  if (a.subresource === 'resize')
    return a.resource.resource === 'pods' && a.operation === 'UPDATE' ? 'pod' : undefined;
  if (a.subresource !== '') return undefined;
  if (a.resource.resource === 'pods') return a.operation === 'CREATE' ? 'pod' : undefined;
  return a.resource.resource === 'persistentvolumeclaims' ? 'claim' : undefined;
}

/** defaultContainerResourceRequirements: the Container items' defaults, later items winning. */
function containerDefaults(lr: LimitRange): {
  requests: Record<string, string>;
  limits: Record<string, string>;
} {
  const requests: Record<string, string> = {};
  const limits: Record<string, string> = {};
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest);
    Object.assign(limits, item.default);
  }
  return { requests, limits };
}

/** mergeContainerResources: fills what the container leaves unset; says what it set. */
function mergeContainer(
  c: Container,
  defaults: ReturnType<typeof containerDefaults>,
  label: string,
): string[] {
  // Maps are made only when something goes in: kube's empty maps vanish on the wire (omitempty).
  const setLimits = Object.keys(defaults.limits).filter((k) => !(k in (c.resources?.limits ?? {})));
  const setRequests = Object.keys(defaults.requests).filter((k) => !(k in (c.resources?.requests ?? {})));
  if (setLimits.length > 0) {
    const limits = ((c.resources ??= {}).limits ??= {});
    for (const k of setLimits) limits[k] = defaults.limits[k] ?? '';
  }
  if (setRequests.length > 0) {
    const requests = ((c.resources ??= {}).requests ??= {});
    for (const k of setRequests) requests[k] = defaults.requests[k] ?? '';
  }
  const notes: string[] = [];
  if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${label} ${c.name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${label} ${c.name}`);
  return notes;
}

/** PodMutateLimitFunc. */
export function applyLimitRangeDefaults(lr: LimitRange, pod: PodLike): void {
  const spec = pod.spec;
  if (spec === undefined) return;
  const defaults = containerDefaults(lr);
  const notes = [
    ...(spec.containers ?? []).flatMap((c) => mergeContainer(c, defaults, 'container')),
    ...(spec.initContainers ?? []).flatMap((c) => mergeContainer(c, defaults, 'init container')),
  ];
  if (notes.length === 0) return;
  const meta = (pod.metadata ??= {});
  (meta.annotations ??= {})[limitRangerAnnotation] = `LimitRanger plugin set: ${notes.join('; ')}`;
}

/** Runs each check over each bounded resource of the item. */
function checkItem(
  item: LimitRangeItem,
  usage: { requests: ResourceAmounts; limits: ResourceAmounts },
  checks: ReadonlyArray<[Record<string, string> | undefined, Check]>,
): string[] {
  const errs: string[] = [];
  for (const [bounds, check] of checks)
    for (const [resource, text] of Object.entries(bounds ?? {})) {
      const enforced = parseQuantity(text);
      if (!enforced.ok) continue;
      const msg = check({ limitType: item.type, resource, enforced: enforced.quantity, ...usage });
      if (msg !== undefined) errs.push(msg);
    }
  return errs;
}

const podChecks = (item: LimitRangeItem): Array<[Record<string, string> | undefined, Check]> => [
  [item.min, minConstraint],
  [item.max, maxConstraint],
  [item.maxLimitRequestRatio, limitRequestRatioConstraint],
];

/** PodValidateLimitFunc: the violations of one LimitRange. */
export function podLimitViolations(lr: LimitRange, spec: Partial<PodSpec>): string[] {
  const errs: string[] = [];
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === 'Container')
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
        const usage = { requests: containerAmounts(c, 'requests'), limits: containerAmounts(c, 'limits') };
        errs.push(...checkItem(item, usage, podChecks(item)));
      }
    if (item.type === 'Pod') {
      const usage = { requests: podAmounts(spec, 'requests'), limits: podAmounts(spec, 'limits') };
      errs.push(...checkItem(item, usage, podChecks(item)));
    }
  }
  return errs;
}

/** PersistentVolumeClaimValidateLimitFunc: min and max hold for the claim's requests. */
export function claimLimitViolations(lr: LimitRange, pvc: PersistentVolumeClaim): string[] {
  const usage = { requests: amountsOf(pvc.spec?.resources?.requests), limits: new Map() };
  return (lr.spec?.limits ?? [])
    .filter((item) => item.type === 'PersistentVolumeClaim')
    .flatMap((item) =>
      checkItem(item, usage, [
        [item.min, minConstraint],
        [item.max, maxRequestConstraint],
      ]),
    );
}

export class LimitRanger implements MutationInterface, ValidationInterface {
  readonly #limitRanges: NamespacedLister<LimitRange>;
  readonly handles = handlesOnly('CREATE', 'UPDATE');
  readonly resources: ReadonlySet<string> = new Set(['pods', 'persistentvolumeclaims']);

  constructor(opts: { readonly limitRanges: Lister; readonly now?: () => number }) {
    this.#limitRanges = new NamespacedLister<LimitRange>({
      lister: opts.limitRanges,
      ...(opts.now === undefined ? {} : { now: opts.now }),
    });
  }

  admit(ctx: RequestContext, a: Attributes): AdmissionResult {
    const target = supports(a);
    if (target !== 'pod' || a.object === null || isBeingDeleted(a)) return undefined;
    const pod = a.object;
    const apply = (ranges: readonly LimitRange[]): void => {
      for (const lr of ranges) applyLimitRangeDefaults(lr, pod);
    };
    const ranges = this.#limitRanges;
    return withLookup(ranges.listNow(a.namespace), () => ranges.list(ctx, a.namespace), apply);
  }

  validate(ctx: RequestContext, a: Attributes): AdmissionResult {
    const target = supports(a);
    if (target === undefined || a.object === null || isBeingDeleted(a)) return undefined;
    const obj = a.object;
    const check = (ranges: readonly LimitRange[]): void => {
      for (const lr of ranges) {
        const errs =
          target === 'pod'
            ? podLimitViolations(lr, (obj as PodLike).spec ?? {})
            : claimLimitViolations(lr, obj as PersistentVolumeClaim);
        if (errs.length > 0) throw newAdmissionForbidden(a, aggregateMessage(errs));
      }
    };
    const ranges = this.#limitRanges;
    return withLookup(ranges.listNow(a.namespace), () => ranges.list(ctx, a.namespace), check);
  }

  close(): void {
    this.#limitRanges.close();
  }
}

/** Objects already marked for deletion are let through. */
const isBeingDeleted = (a: Attributes): boolean => (a.oldObject?.metadata?.deletionTimestamp ?? '') !== '';
