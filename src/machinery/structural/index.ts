export { StructuralDecoder, fieldValidationDirectives } from './decoder.js';
export type { DecodeOptions, DecodeResult, FieldValidationDirective } from './decoder.js';
export { cannotBeHandledMessage, decodeOutcome, strictDecodingErrorMessage } from './outcome.js';
export type { DecodeOutcome } from './outcome.js';
export { hasDuplicateKeys } from './duplicate-scan.js';
export { goQuote } from './go-quote.js';
export { interpretTypeMeta } from './type-meta.js';
export type { TypeMetaResult } from './type-meta.js';
