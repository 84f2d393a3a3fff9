// The errors of kube's strategic merge patch (apimachinery/pkg/util/mergepatch/errors.go) with
// their texts, and which of them the patch handler answers as 400 or 422.
import { goTypeName, goValueString } from '../go-value.js';

export const smpErrorKinds = ['badRequest', 'unprocessable', 'internal'] as const;
export type SMPErrorKind = (typeof smpErrorKinds)[number];

/** A failure to apply a strategic merge patch; `kind` says how the handler answers it. */
export class StrategicMergeError extends Error {
  readonly kind: SMPErrorKind;
  constructor(message: string, kind: SMPErrorKind = 'internal') {
    super(message);
    this.kind = kind;
  }
}

export const errBadJSONDoc = (): StrategicMergeError =>
  new StrategicMergeError('invalid JSON document', 'badRequest');
export const errNoListOfLists = (): StrategicMergeError =>
  new StrategicMergeError('lists of lists are not supported', 'unprocessable');
export const errBadPatchFormatForPrimitiveList = (): StrategicMergeError =>
  new StrategicMergeError('invalid patch format of primitive list', 'badRequest');
export const errBadPatchFormatForRetainKeys = (): StrategicMergeError =>
  new StrategicMergeError('invalid patch format of retainKeys', 'badRequest');
export const errBadPatchFormatForSetElementOrderList = (): StrategicMergeError =>
  new StrategicMergeError('invalid patch format of setElementOrder list', 'badRequest');

/** ErrBadArgType: `expected a map[string]interface {}, but received a string`. */
export function errBadArgType(expected: 'map' | 'slice', actual: unknown): StrategicMergeError {
  const want = expected === 'map' ? 'map[string]interface {}' : '[]interface {}';
  return new StrategicMergeError(`expected a ${want}, but received a ${goTypeName(actual)}`);
}

export function errNoMergeKey(m: unknown, key: string): StrategicMergeError {
  return new StrategicMergeError(`map: ${goValueString(m)} does not contain declared merge key: ${key}`);
}

export function errBadPatchType(t: unknown, m: unknown): StrategicMergeError {
  return new StrategicMergeError(`unknown patch type: ${goValueString(t)} in map: ${goValueString(m)}`);
}
