// Lease policy (pkg/registry/coordination/lease/strategy.go) and validation
// (pkg/apis/coordination/validation/validation.go).
import type { Lease, LeaseSpec } from '../../../api/coordination/v1/lease.js';
import {
  FieldError,
  FieldPath,
  isQualifiedName,
  nameIsDNSSubdomain,
  validateObjectMeta,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateObjectMetaUpdate } from '../../generic/validate-meta-update.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';

/** coordination.CoordinatedLeaseStrategy values kube defines. */
const validLeaseStrategies = ['OldestEmulationVersion'] as const;

/** ValidateCoordinatedLeaseStrategy: a kube strategy, or a qualified name of someone else's. */
export function validateCoordinatedLeaseStrategy(strategy: string, path: FieldPath): ErrorList {
  if (!strategy.includes('/')) {
    return (validLeaseStrategies as readonly string[]).includes(strategy)
      ? []
      : [FieldError.notSupported(path, strategy, validLeaseStrategies)];
  }
  return isQualifiedName(strategy).map((msg) => FieldError.invalid(path, strategy, msg));
}

/** ValidateLeaseSpec. */
export function validateLeaseSpec(spec: LeaseSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const duration = spec.leaseDurationSeconds;
  if (duration !== undefined && duration <= 0) {
    errs.push(FieldError.invalid(path.child('leaseDurationSeconds'), duration, 'must be greater than 0'));
  }
  const transitions = spec.leaseTransitions;
  if (transitions !== undefined && transitions < 0) {
    errs.push(
      FieldError.invalid(path.child('leaseTransitions'), transitions, 'must be greater than or equal to 0'),
    );
  }
  if (spec.strategy !== undefined) {
    errs.push(...validateCoordinatedLeaseStrategy(spec.strategy, path.child('strategy')));
  }
  if ((spec.preferredHolder ?? '') !== '' && (spec.strategy ?? '') === '') {
    errs.push(
      FieldError.forbidden(path.child('preferredHolder'), 'may only be specified if `strategy` is defined'),
    );
  }
  return errs;
}

/** ValidateLease: the holder identity is free text. */
export function validateLease(lease: Lease): ErrorList {
  return [
    ...validateObjectMeta(lease.metadata ?? {}, {
      requiresNamespace: true,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateLeaseSpec(lease.spec ?? {}, FieldPath.of('spec')),
  ];
}

/** ValidateLeaseUpdate. */
export function validateLeaseUpdate(lease: Lease, old: Lease): ErrorList {
  return [
    ...validateObjectMetaUpdate(lease.metadata ?? {}, old.metadata ?? {}),
    ...validateLeaseSpec(lease.spec ?? {}, FieldPath.of('spec')),
  ];
}

// The CoordinatedLeaderElection gate is off by default (a beta API), so its fields are dropped
// unless the stored lease already uses them.
function dropDisabledFields(lease: Lease, old: Lease | undefined): void {
  const spec = lease.spec;
  if (spec === undefined) return;
  if (old?.spec?.strategy === undefined) delete spec.strategy;
  if (old?.spec?.preferredHolder === undefined) delete spec.preferredHolder;
}

export const leaseStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  prepareForCreate: (_ctx, lease) => {
    dropDisabledFields(lease, undefined);
  },
  validate: (_ctx, lease) => validateLease(lease),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, lease, old) => {
    dropDisabledFields(lease, old);
  },
  validateUpdate: (_ctx, lease, old) => validateLeaseUpdate(lease, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<Lease> & UpdateStrategy<Lease>;

export const leaseDeleteStrategy = {} satisfies DeleteStrategy<Lease>;
