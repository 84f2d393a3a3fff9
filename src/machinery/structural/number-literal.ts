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
