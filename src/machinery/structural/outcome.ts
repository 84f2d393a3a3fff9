// What a handler does with a DecodeResult under a fieldValidation directive, and kube's texts.
// Follows k8s.io/apiserver/pkg/endpoints/handlers (create.go, update.go: transformDecodeError,
// addStrictDecodingWarnings) and runtime.strictDecodingError.
import type { DecodeResult, FieldValidationDirective } from './decoder.js';

export interface DecodeOutcome {
  /** The error to answer 400 BadRequest with (see cannotBeHandledMessage for the full text). */
  readonly error?: string;
  /** One `Warning` header each (Warn). */
  readonly warnings: readonly string[];
}

export const strictDecodingErrorMessage = (errors: readonly string[]): string =>
  `strict decoding error: ${errors.join(', ')}`;

export function decodeOutcome(result: DecodeResult, directive: FieldValidationDirective): DecodeOutcome {
  if (result.error !== undefined) return { error: result.error, warnings: [] };
  if (result.strictErrors.length === 0) return { warnings: [] };
  switch (directive) {
    case 'Strict':
      return { error: strictDecodingErrorMessage(result.strictErrors), warnings: [] };
    case 'Warn':
      return { warnings: result.strictErrors };
    case 'Ignore':
      return { warnings: [] };
  }
}

/**
 * The BadRequest message kube builds around a decode error when the body names its kind:
 * `ConfigMap in version "v1" cannot be handled as a ConfigMap: <error>`.
 */
export function cannotBeHandledMessage(
  body: { readonly kind: string; readonly version: string },
  targetKind: string,
  error: string,
): string {
  return `${body.kind} in version ${JSON.stringify(body.version)} cannot be handled as a ${targetKind}: ${error}`;
}
