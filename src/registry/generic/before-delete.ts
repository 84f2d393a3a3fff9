// rest.BeforeDelete (k8s.io/apiserver/pkg/registry/rest/delete.go): validates DeleteOptions, checks
// preconditions early, and decides whether the delete is graceful or already pending.
import type { KubeObject, Preconditions } from '../../api/meta.js';
import { newConflict, newInvalid } from '../../machinery/errors/index.js';
import { FieldError, FieldPath, type ErrorList } from '../../machinery/validation/index.js';
import type { RequestContext } from '../rest/context.js';
import { propagationPolicies, type DeleteOptions } from '../rest/options.js';
import { addSeconds, nowTimestamp, rfc3339 } from './object-meta.js';
import type { StoreCore } from './store-core.js';

/** metav1 validation.ValidateDeleteOptions. */
export function validateDeleteOptions(options: DeleteOptions): ErrorList {
  const errs: ErrorList = [];
  const policy: string | undefined = options.propagationPolicy;
  if (options.orphanDependents !== undefined && policy !== undefined) {
    errs.push(
      FieldError.invalid(
        FieldPath.of('propagationPolicy'),
        policy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  if (policy !== undefined && !(propagationPolicies as readonly string[]).includes(policy)) {
    errs.push(
      FieldError.notSupported(FieldPath.of('propagationPolicy'), policy, [
        'Foreground',
        'Background',
        'Orphan',
        'nil',
      ]),
    );
  }
  const dryRun = options.dryRun ?? [];
  if (dryRun.length > 1 || (dryRun.length === 1 && dryRun[0] !== 'All')) {
    errs.push(FieldError.notSupported(FieldPath.of('dryRun'), dryRun, ['All']));
  }
  return errs;
}

function checkPreconditionsEarly<T extends KubeObject>(
  core: StoreCore<T>,
  obj: KubeObject,
  options: DeleteOptions,
): void {
  checkDeletePreconditions(core.qualifiedKind, obj, options.preconditions);
}

/**
 * A delete's preconditions against the object as read (409 Conflict with kube's texts). kube names
 * the kind here, not the resource: `Operation cannot be fulfilled on ConfigMap "x"`.
 */
export function checkDeletePreconditions(
  kind: { group: string; kind: string },
  obj: KubeObject,
  pre: Preconditions | undefined,
): void {
  if (pre === undefined) return;
  const qr = { group: kind.group, resource: kind.kind };
  const name = obj.metadata?.name ?? '';
  const uid = obj.metadata?.uid ?? '';
  const rv = obj.metadata?.resourceVersion ?? '';
  if (pre.uid !== undefined && pre.uid !== uid) {
    throw newConflict(
      qr,
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv) {
    throw newConflict(
      qr,
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
    );
  }
}

export interface BeforeDeleteResult {
  /** Delete by setting deletionTimestamp and a grace period rather than at once. */
  readonly graceful: boolean;
  /** A graceful delete is already under way and this request does not shorten it. */
  readonly gracefulPending: boolean;
}

/** A shorter grace period for an object already being deleted gracefully. */
function shortenGracePeriod(obj: KubeObject, options: DeleteOptions, nowMs: number): BeforeDeleteResult {
  const meta = obj.metadata ?? {};
  const current = meta.deletionGracePeriodSeconds ?? 0;
  if (options.gracePeriodSeconds === undefined) {
    options.gracePeriodSeconds = current;
    return { graceful: false, gracefulPending: true };
  }
  const period = options.gracePeriodSeconds;
  if (period >= current) return { graceful: false, gracefulPending: true };
  const start = Date.parse(meta.deletionTimestamp ?? nowTimestamp(nowMs)) - current * 1000;
  meta.deletionTimestamp = rfc3339(new Date(start + period * 1000));
  meta.deletionGracePeriodSeconds = period;
  return { graceful: true, gracefulPending: false };
}

/** May change `obj` (deletion timestamp, grace period, generation) and `options` (grace period). */
export function beforeDelete<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  opts: { obj: T; options: DeleteOptions },
): BeforeDeleteResult {
  const { obj, options } = opts;
  const errs = validateDeleteOptions(options);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  checkPreconditionsEarly(core, obj, options);

  // Negative values mean 1 second on the delete path.
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0)
    options.gracePeriodSeconds = 1;
  const meta = (obj.metadata ??= {});
  if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds < 0) {
    meta.deletionGracePeriodSeconds = 1;
  }

  const strategy = core.deleteStrategy;
  if (strategy.checkGracefulDelete === undefined) return { graceful: false, gracefulPending: false };
  if ((meta.deletionTimestamp ?? '') !== '') {
    // A stored zero (or missing) grace period means a delete was interrupted: finish it now.
    if ((meta.deletionGracePeriodSeconds ?? 0) === 0) return { graceful: false, gracefulPending: false };
    return shortenGracePeriod(obj, options, core.clock.now());
  }
  if (!strategy.checkGracefulDelete(ctx, obj, options)) return { graceful: false, gracefulPending: false };
  const period = options.gracePeriodSeconds ?? 0;
  meta.deletionTimestamp = addSeconds(nowTimestamp(core.clock.now()), period);
  meta.deletionGracePeriodSeconds = period;
  if ((meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  return { graceful: true, gracefulPending: false };
}
