// metav1.CreateOptions / UpdateOptions / PatchOptions from the query and their validation
// (apimachinery/pkg/apis/meta/v1/validation).
import { newInvalid } from '../../machinery/errors/index.js';
import { FieldError, newPath, type FieldPath } from '../../machinery/validation/index.js';
import {
  fieldValidationModes,
  type CreateOptions,
  type FieldValidation,
} from '../../registry/rest/options.js';
import { boolParam } from './query-params.js';

const fieldManagerMaxLength = 128;
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's %#U: `U+0007`, or `U+0078 'x'` for a printable rune. */
function goRuneU(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return printable.test(ch) ? `${hex} '${ch}'` : hex;
}

export function validateFieldManager(fieldManager: string, path: FieldPath): FieldError[] {
  if (fieldManager === '') return [];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(fieldManager) > fieldManagerMaxLength)
    errs.push(FieldError.tooLong(path, fieldManagerMaxLength));
  let offset = 0;
  for (const ch of fieldManager) {
    if (!printable.test(ch)) {
      errs.push(
        FieldError.invalid(path, fieldManager, `invalid character ${goRuneU(ch)} (at position ${offset})`),
      );
    }
    offset += Buffer.byteLength(ch);
  }
  return errs;
}

export function validateDryRun(dryRun: readonly string[]): FieldError[] {
  if (dryRun.every((v) => v === 'All')) return [];
  return [FieldError.notSupported(newPath('dryRun'), [...dryRun], ['All'])];
}

const allowedFieldValidation: readonly string[] = ['', 'Ignore', 'Strict', 'Warn'];

export function validateFieldValidation(value: string): FieldError[] {
  if (allowedFieldValidation.includes(value)) return [];
  return [FieldError.notSupported(newPath('fieldValidation'), value, allowedFieldValidation)];
}

export interface DecodedWriteOptions {
  readonly options: CreateOptions;
  /** The directive in force: an absent fieldValidation means Warn. */
  readonly fieldValidation: FieldValidation;
}

function toWriteOptions(query: URLSearchParams): { options: CreateOptions; raw: string } {
  const options: CreateOptions = {};
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) options.dryRun = dryRun;
  const manager = query.get('fieldManager') ?? '';
  if (manager !== '') options.fieldManager = manager;
  const raw = query.get('fieldValidation') ?? '';
  if ((fieldValidationModes as readonly string[]).includes(raw))
    options.fieldValidation = raw as FieldValidation;
  return { options, raw };
}

/** Create and update options; `kind` names the options kind in the Invalid error. */
export function decodeWriteOptions(
  query: URLSearchParams,
  kind: 'CreateOptions' | 'UpdateOptions',
): DecodedWriteOptions {
  const { options, raw } = toWriteOptions(query);
  const errs = [
    ...validateFieldManager(options.fieldManager ?? '', newPath('fieldManager')),
    ...validateDryRun(options.dryRun ?? []),
    ...validateFieldValidation(raw),
  ];
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind }, '', errs);
  return { options, fieldValidation: options.fieldValidation ?? 'Warn' };
}

/** Patch options: like update's, plus `force`, which only apply patches may set. */
export function decodePatchOptions(
  query: URLSearchParams,
  isApply: boolean,
): DecodedWriteOptions & { force?: boolean } {
  const { options, raw } = toWriteOptions(query);
  const force = boolParam(query, 'force');
  const errs: FieldError[] = [];
  if (!isApply && force !== undefined)
    errs.push(FieldError.forbidden(newPath('force'), 'may not be specified for non-apply patch'));
  if (isApply && (options.fieldManager ?? '') === '') {
    errs.push(FieldError.required(newPath('fieldManager'), 'is required for apply patch'));
  }
  errs.push(
    ...validateFieldManager(options.fieldManager ?? '', newPath('fieldManager')),
    ...validateDryRun(options.dryRun ?? []),
    ...validateFieldValidation(raw),
  );
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', errs);
  const decoded: DecodedWriteOptions & { force?: boolean } = {
    options,
    fieldValidation: options.fieldValidation ?? 'Warn',
  };
  if (force !== undefined) decoded.force = force;
  return decoded;
}
