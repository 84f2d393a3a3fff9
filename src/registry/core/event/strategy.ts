// Event policy (pkg/registry/core/event/strategy.go) and the core/v1 rules of ValidateEventCreate
// (legacyValidateEvent in pkg/apis/core/validation/events.go).
import type { Event } from '../../../api/core/v1/event.js';
import {
  byteLength,
  FieldError,
  FieldPath,
  isDNS1123Subdomain,
  isQualifiedName,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';

const reportingInstanceLengthLimit = 128;
const actionLengthLimit = 128;
const reasonLengthLimit = 128;
const noteLengthLimit = 1024;

const mismatch = 'does not match event.namespace';

function tooLongAt(path: string, limit: number): FieldError {
  return FieldError.invalid(FieldPath.of(path), '', `can have at most ${String(limit)} characters`);
}

/** Events without eventTime come from old clients: only the namespaces must agree. */
function validateOldEvent(event: Event, namespace: string): ErrorList {
  const involved = event.involvedObject?.namespace ?? '';
  const path = FieldPath.of('involvedObject', 'namespace');
  if (involved === '') {
    // Old clients put events about cluster-scoped objects in "default".
    return namespace !== '' && namespace !== 'default' ? [FieldError.invalid(path, involved, mismatch)] : [];
  }
  return namespace !== involved ? [FieldError.invalid(path, involved, mismatch)] : [];
}

/** Events with eventTime follow the events.k8s.io rules for who reported them. */
function validateNewEvent(event: Event, namespace: string): ErrorList {
  const errs: ErrorList = [];
  const involved = event.involvedObject?.namespace ?? '';
  if (involved === '' && namespace !== 'default' && namespace !== 'kube-system') {
    errs.push(FieldError.invalid(FieldPath.of('involvedObject', 'namespace'), involved, mismatch));
  }
  const controller = event.reportingComponent ?? '';
  const controllerPath = FieldPath.of('reportingController');
  if (controller === '') errs.push(FieldError.required(controllerPath));
  for (const msg of isQualifiedName(controller))
    errs.push(FieldError.invalid(controllerPath, controller, msg));
  const instance = event.reportingInstance ?? '';
  if (instance === '') errs.push(FieldError.required(FieldPath.of('reportingInstance')));
  if (byteLength(instance) > reportingInstanceLengthLimit)
    errs.push(tooLongAt('reportingInstance', reportingInstanceLengthLimit));
  if (byteLength(event.action ?? '') > actionLengthLimit) errs.push(tooLongAt('action', actionLengthLimit));
  if (byteLength(event.reason ?? '') > reasonLengthLimit) errs.push(tooLongAt('reason', reasonLengthLimit));
  if (byteLength(event.message ?? '') > noteLengthLimit) errs.push(tooLongAt('message', noteLengthLimit));
  return errs;
}

/** legacyValidateEvent. */
export function validateLegacyEvent(event: Event): ErrorList {
  const namespace = event.metadata?.namespace ?? '';
  const errs =
    (event.eventTime ?? '') === '' ? validateOldEvent(event, namespace) : validateNewEvent(event, namespace);
  for (const msg of isDNS1123Subdomain(namespace)) {
    errs.push(FieldError.invalid(FieldPath.of('namespace'), namespace, msg));
  }
  return errs;
}

/** ValidateEventCreate for a core/v1 request. */
export function validateEvent(event: Event): ErrorList {
  return [
    ...validateCoreObjectMeta(event.metadata ?? {}, {
      requiresNamespace: true,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateLegacyEvent(event),
  ];
}

/** ValidateEventUpdate for a core/v1 request. */
export function validateEventUpdate(event: Event, old: Event): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(event.metadata ?? {}, old.metadata ?? {}),
    ...validateLegacyEvent(event),
  ];
}

export const eventStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => undefined,
  validate: (_ctx, event) => validateEvent(event),
  warningsOnCreate: () => [],
  prepareForUpdate: () => undefined,
  validateUpdate: (_ctx, event, old) => validateEventUpdate(event, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<Event> & UpdateStrategy<Event>;

/** Events are deleted at once. */
export const eventDeleteStrategy = {} satisfies DeleteStrategy<Event>;
