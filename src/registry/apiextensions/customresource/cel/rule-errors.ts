// Field errors of rules, with kube's texts (apiextensions-apiserver pkg/apiserver/schema/cel/
// validation.go and pkg/apis/apiextensions/validation/validation.go).
import type { ValidationRule } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { FieldError, goQuote, type FieldPath } from '../../../../machinery/validation/index.js';

const pointer = (type: string, set: boolean): string => `(*${type})(${set ? '0xc000000000' : 'nil'})`;

/**
 * A compile error whose bad value is the rule, printed as Go's %#v prints kube's internal
 * apiextensions.ValidationRule (a set pointer shows a placeholder address, as Go shows some address).
 */
class RuleValueError extends FieldError {
  readonly #rule: ValidationRule;

  constructor(path: FieldPath, rule: ValidationRule, detail: string) {
    super({ type: 'FieldValueInvalid', field: path.toString(), badValue: rule, detail });
    this.#rule = rule;
  }

  override errorBody(): string {
    const r = this.#rule;
    const value =
      `apiextensions.ValidationRule{Rule:${goQuote(r.rule)}, Message:${goQuote(r.message ?? '')}, ` +
      `MessageExpression:${goQuote(r.messageExpression ?? '')}, ` +
      `Reason:${pointer('apiextensions.FieldValueErrorReason', r.reason !== undefined)}, ` +
      `FieldPath:${goQuote(r.fieldPath ?? '')}, OptionalOldSelf:${pointer('bool', r.optionalOldSelf !== undefined)}}`;
    return `Invalid value: ${value}: ${this.detail}`;
  }
}

export function ruleInvalid(path: FieldPath, rule: ValidationRule, detail: string): FieldError {
  return new RuleValueError(path, rule, detail);
}

/** ruleErrorString: the message if there is one, else the rule. */
export function ruleErrorString(rule: ValidationRule): string {
  const message = (rule.message ?? '').trim();
  return message !== '' ? message : rule.rule.trim();
}

/** ruleMessageOrDefault. */
export function ruleMessageOrDefault(rule: ValidationRule): string {
  const message = (rule.message ?? '').trim();
  return message !== '' ? message : `failed rule: ${ruleErrorString(rule)}`;
}

/** fieldErrorForReason. */
export function fieldErrorForReason(
  path: FieldPath | undefined,
  opts: { typeName: string; detail: string; reason: string | undefined },
): FieldError {
  switch (opts.reason) {
    case 'FieldValueForbidden':
      return FieldError.forbidden(path, opts.detail);
    case 'FieldValueRequired':
      return FieldError.required(path, opts.detail);
    case 'FieldValueDuplicate':
      return FieldError.duplicate(path, opts.typeName);
    case undefined:
    default:
      return FieldError.invalid(path, opts.typeName, opts.detail);
  }
}

/** The issue of an expression the parser refused (its error, or a CelSyntaxError alike). */
export function syntaxIssue(err: unknown): { offset: number; message: string } {
  const e = err as { rawMessage?: string; location?: { start?: { offset?: number } }; message: string };
  return { offset: e.location?.start?.offset ?? 0, message: `Syntax error: ${e.rawMessage ?? e.message}` };
}

/** An issue at an offset of the source as cel-go's Issues.String() prints it. */
export function formatIssue(
  source: string,
  issue: { offset: number; message: string; atOperator?: boolean },
): string {
  let offset = issue.offset;
  // @bufbuild/cel places a binary operator where its left operand ends; cel-go at the operator.
  if (issue.atOperator === true) while (/\s/.test(source.charAt(offset))) offset++;
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = offset - lineStart;
  const text = source.slice(lineStart).split('\n')[0] ?? '';
  return `ERROR: <input>:${line}:${column + 1}: ${issue.message}\n | ${text}\n | ${'.'.repeat(column)}^`;
}
