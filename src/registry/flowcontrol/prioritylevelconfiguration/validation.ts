// PriorityLevelConfiguration validation (ValidatePriorityLevelConfiguration and its parts in
// pkg/apis/flowcontrol/validation, as for requests to v1: a zero nominalConcurrencyShares is allowed).
import {
  limitResponseTypes,
  priorityLevelEnablements,
  type LimitedPriorityLevelConfiguration,
  type PriorityLevelConfiguration,
  type QueuingConfiguration,
} from '../../../api/flowcontrol/v1/priority-level-configuration.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCoreObjectMeta } from '../../core/namespace/finalizer-names.js';
import { validateConditions } from '../conditions.js';

/** priorityLevelConfigurationQueuingMaxQueues. */
const maxQueues = 10_000_000;
/** shufflesharding.MaxHashBits. */
const maxHashBits = 60;

/** shufflesharding.RequiredEntropyBits. */
const requiredEntropyBits = (deckSize: number, handSize: number): number =>
  Math.ceil(Math.log2(deckSize) * handSize);

function validateQueuing(q: QueuingConfiguration, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const { queues = 0, handSize = 0, queueLengthLimit = 0 } = q;
  if (queueLengthLimit <= 0)
    errs.push(FieldError.invalid(path.child('queueLengthLimit'), queueLengthLimit, 'must be positive'));
  if (queues <= 0) errs.push(FieldError.invalid(path.child('queues'), queues, 'must be positive'));
  else if (queues > maxQueues) {
    errs.push(FieldError.invalid(path.child('queues'), queues, `must not be greater than ${maxQueues}`));
  }
  const handPath = path.child('handSize');
  if (handSize <= 0) errs.push(FieldError.invalid(handPath, handSize, 'must be positive'));
  else if (handSize > queues) {
    errs.push(FieldError.invalid(handPath, handSize, `should not be greater than queues (${queues})`));
  } else if (requiredEntropyBits(queues, handSize) > maxHashBits) {
    errs.push(
      FieldError.invalid(
        handPath,
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${maxHashBits}`,
      ),
    );
  }
  return errs;
}

function validateLimitResponse(
  lr: LimitedPriorityLevelConfiguration['limitResponse'],
  path: FieldPath,
): ErrorList {
  const type = lr?.type ?? '';
  switch (type) {
    case 'Reject':
      return lr?.queuing === undefined
        ? []
        : [
            FieldError.forbidden(
              path.child('queuing'),
              'must be nil if limited.limitResponse.type is not Limited',
            ),
          ];
    case 'Queue':
      return lr?.queuing === undefined
        ? [
            FieldError.required(
              path.child('queuing'),
              'must not be empty if limited.limitResponse.type is Limited',
            ),
          ]
        : validateQueuing(lr.queuing, path.child('queuing'));
    default:
      return [FieldError.notSupported(path.child('type'), type, limitResponseTypes)];
  }
}

function validatePercents(
  c: { nominalConcurrencyShares?: number; lendablePercent?: number },
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  const ncs = c.nominalConcurrencyShares ?? 0;
  if (ncs < 0)
    errs.push(
      FieldError.invalid(path.child('nominalConcurrencyShares'), ncs, 'must be a non-negative integer'),
    );
  const lp = c.lendablePercent;
  if (lp !== undefined && !(lp >= 0 && lp <= 100)) {
    errs.push(FieldError.invalid(path.child('lendablePercent'), lp, 'must be between 0 and 100, inclusive'));
  }
  return errs;
}

function validateLimited(l: LimitedPriorityLevelConfiguration, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const ncs = l.nominalConcurrencyShares ?? 0;
  if (ncs < 0)
    errs.push(
      FieldError.invalid(path.child('nominalConcurrencyShares'), ncs, 'must be a non-negative integer'),
    );
  errs.push(...validateLimitResponse(l.limitResponse, path.child('limitResponse')));
  const lp = l.lendablePercent;
  if (lp !== undefined && !(lp >= 0 && lp <= 100)) {
    errs.push(FieldError.invalid(path.child('lendablePercent'), lp, 'must be between 0 and 100, inclusive'));
  }
  const blp = l.borrowingLimitPercent;
  if (blp !== undefined && blp < 0) {
    errs.push(
      FieldError.invalid(
        path.child('borrowingLimitPercent'),
        blp,
        'if specified, must be a non-negative integer',
      ),
    );
  }
  return errs;
}

/** ValidatePriorityLevelConfigurationSpec. */
function validateSpec(pl: PriorityLevelConfiguration, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const { spec } = pl;
  const type = spec.type ?? '';
  if ((pl.metadata?.name === 'exempt') !== (type === 'Exempt')) {
    errs.push(
      FieldError.invalid(path.child('type'), type, "type must be 'Exempt' if and only if name is 'exempt'"),
    );
  }
  switch (type) {
    case 'Exempt':
      if (spec.limited !== undefined)
        errs.push(FieldError.forbidden(path.child('limited'), 'must be nil if the type is not Limited'));
      if (spec.exempt !== undefined) errs.push(...validatePercents(spec.exempt, path.child('exempt')));
      break;
    case 'Limited':
      if (spec.exempt !== undefined)
        errs.push(FieldError.forbidden(path.child('exempt'), 'must be nil if the type is Limited'));
      if (spec.limited === undefined) {
        errs.push(FieldError.required(path.child('limited'), 'must not be empty when type is Limited'));
      } else errs.push(...validateLimited(spec.limited, path.child('limited')));
      break;
    default:
      errs.push(FieldError.notSupported(path.child('type'), type, priorityLevelEnablements));
  }
  return errs;
}

/** ValidatePriorityLevelConfiguration (also what an update is checked against). */
export function validatePriorityLevelConfiguration(pl: PriorityLevelConfiguration): ErrorList {
  return [
    ...validateCoreObjectMeta(pl.metadata ?? {}, {
      requiresNamespace: false,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateSpec(pl, FieldPath.of('spec')),
    ...validatePriorityLevelConfigurationStatus(pl),
  ];
}

/** ValidatePriorityLevelConfigurationStatus. */
export function validatePriorityLevelConfigurationStatus(pl: PriorityLevelConfiguration): ErrorList {
  return validateConditions(pl.status?.conditions ?? [], FieldPath.of('status', 'conditions'));
}
