// metav1.StatusReason values (k8s.io/apimachinery/pkg/apis/meta/v1/types.go) and the code each carries.

export const statusReasons = [
  'Unknown',
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Invalid',
  'ServerTimeout',
  'StoreReadError',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'Expired',
  'ServiceUnavailable',
] as const;
export type StatusReason = (typeof statusReasons)[number];

export const reasonCodes: Record<StatusReason, number> = {
  Unknown: 500,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  AlreadyExists: 409,
  Conflict: 409,
  Gone: 410,
  Invalid: 422,
  ServerTimeout: 500,
  StoreReadError: 500,
  Timeout: 504,
  TooManyRequests: 429,
  BadRequest: 400,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  InternalError: 500,
  Expired: 410,
  ServiceUnavailable: 503,
};

/** metav1.CauseType values used in Status causes (serialized as `reason`). */
export const causeTypes = [
  'FieldValueNotFound',
  'FieldValueRequired',
  'FieldValueDuplicate',
  'FieldValueInvalid',
  'FieldValueNotSupported',
  'FieldValueForbidden',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'InternalError',
  'FieldValueTypeInvalid',
  'UnexpectedServerResponse',
  'FieldManagerConflict',
  'ResourceVersionTooLarge',
] as const;
export type CauseType = (typeof causeTypes)[number];
