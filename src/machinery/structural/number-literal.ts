// A JSON number as its text wrote it, where Go reads the text and JSON.parse's value loses it: an
// integer field's decoder runs strconv.ParseInt over the text, so `1.0` and `1e3` are refused
// (`json: cannot unmarshal number 1.0 into Go struct field …`), and Quantity.UnmarshalJSON parses
// the text itself, so `1e3` stays `1e3` where the value 1000 would be written `1k`. The text
// decoder (go-decode.ts) hands such a number to the checks of the fields that read it
// (Node.readsNumberText) in this form; every other number stays a number.

export class NumberLiteral {
  /** The number's text in the body: `1.0`, `-2.50`, `1e3`. */
  readonly text: string;
  /** What JSON.parse makes of it. */
  readonly value: number;

  constructor(text: string, value: number) {
    this.text = text;
    this.value = value;
  }
}

/** Whether a number's text has a fraction or an exponent, which Go's ParseInt refuses. */
export const hasFractionOrExponent = (text: string): boolean =>
  text.includes('.') || text.includes('e') || text.includes('E');

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof NumberLiteral);

/**
 * Puts the NumberLiterals of `literals` (a JSON text decoded with them by the text decoder:
 * StructuralDecoder.numberLiterals) into `value` at the same paths, where `value` holds that very
 * number. The text is a merge patch's own (what it sets lands where the patch has it) or the patch
 * library's text of the patched object (PatchMechanism.numberText). Only the decode of a built-in
 * kind, whose checks turn them back into values, is to see them. Mutates `value`.
 */
export function withNumberLiterals(value: unknown, literals: unknown): void {
  if (Array.isArray(value) && Array.isArray(literals)) {
    const list = value as unknown[];
    (literals as unknown[]).forEach((l, i) => {
      if (l instanceof NumberLiteral && list[i] === l.value) list[i] = l;
      else withNumberLiterals(list[i], l);
    });
    return;
  }
  if (!isObject(value) || !isObject(literals)) return;
  for (const key of Object.keys(literals)) {
    if (!Object.hasOwn(value, key)) continue;
    const l = literals[key];
    if (l instanceof NumberLiteral && value[key] === l.value) value[key] = l;
    else withNumberLiterals(value[key], l);
  }
}
