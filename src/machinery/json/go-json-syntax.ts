// The syntax check Go's encoding/json runs before decoding (scanner.go), with its error texts:
// clients see them inside kube's "couldn't get version/kind; json parse error: …" messages.
import { goQuote } from '../validation/index.js';

class GoSyntaxError extends Error {}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Go's quoteChar: a byte as `'x'`, escaped as strconv.Quote would. */
export function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const q = goQuote(String.fromCodePoint(c));
  return `'${q.slice(1, -1)}'`;
}

/** encoding/json's maxNestingDepth: deeper documents are a syntax error. */
export const maxNestingDepth = 10000;

const OBJECT = 0x7b;
const ARRAY = 0x5b;

// Iterative, with the open containers on a stack, so that documents nested up to Go's limit are
// checked without exhausting the call stack.
class Scanner {
  readonly #b: Uint8Array;
  readonly #maxDepth: number;
  #i = 0;
  readonly #open: number[] = [];

  constructor(bytes: Uint8Array, maxDepth: number) {
    this.#b = bytes;
    this.#maxDepth = maxDepth;
  }

  #peek(): number {
    const c = this.#b[this.#i];
    if (c === undefined) throw new GoSyntaxError('unexpected end of JSON input');
    return c;
  }

  #fail(c: number, context: string): never {
    throw new GoSyntaxError(`invalid character ${quoteChar(c)} ${context}`);
  }

  #skipSpace(): void {
    while (this.#i < this.#b.length && isSpace(this.#b[this.#i] ?? 0)) this.#i++;
  }

  checkTopLevel(): void {
    this.#skipSpace();
    for (;;) {
      if (this.#value()) continue;
      if (!this.#afterValue()) return;
    }
  }

  /**
   * Scans a scalar or an empty container (false), or opens a container whose first member comes
   * next (true), having scanned the first key of an object.
   */
  #value(): boolean {
    const c = this.#peek();
    if (c === OBJECT || c === ARRAY) {
      this.#push(c);
      this.#i++;
      this.#skipSpace();
      if (this.#peek() === (c === OBJECT ? 0x7d : 0x5d)) {
        this.#i++;
        this.#open.pop();
        return false;
      }
      if (c === OBJECT) this.#key();
      return true;
    }
    if (c === 0x22) this.#string();
    else if (c === 0x2d || isDigit(c)) this.#number();
    else if (c === 0x74) this.#literal('true');
    else if (c === 0x66) this.#literal('false');
    else if (c === 0x6e) this.#literal('null');
    else this.#fail(c, 'looking for beginning of value');
    return false;
  }

  #push(c: number): void {
    this.#open.push(c);
    if (this.#open.length > this.#maxDepth) this.#fail(c, 'exceeded max depth');
  }

  /** After a value: closes what ends there; false at the end of the top-level value. */
  #afterValue(): boolean {
    for (;;) {
      this.#skipSpace();
      const top = this.#open[this.#open.length - 1];
      if (top === undefined) {
        if (this.#i < this.#b.length) this.#fail(this.#b[this.#i] ?? 0, 'after top-level value');
        return false;
      }
      const c = this.#peek();
      this.#i++;
      if (c === (top === OBJECT ? 0x7d : 0x5d)) {
        this.#open.pop();
        continue;
      }
      if (c !== 0x2c) this.#fail(c, top === OBJECT ? 'after object key:value pair' : 'after array element');
      this.#skipSpace();
      if (top === OBJECT) this.#key();
      return true;
    }
  }

  /** An object key and its colon, leaving the scanner at the member's value. */
  #key(): void {
    if (this.#peek() !== 0x22) this.#fail(this.#peek(), 'looking for beginning of object key string');
    this.#string();
    this.#skipSpace();
    if (this.#peek() !== 0x3a) this.#fail(this.#peek(), 'after object key');
    this.#i++;
    this.#skipSpace();
  }

  #string(): void {
    this.#i++;
    for (;;) {
      const c = this.#peek();
      this.#i++;
      if (c === 0x22) return;
      if (c < 0x20) this.#fail(c, 'in string literal');
      if (c === 0x5c) this.#escape();
    }
  }

  #escape(): void {
    const c = this.#peek();
    this.#i++;
    if ('"\\/bfnrt'.includes(String.fromCharCode(c))) return;
    if (c !== 0x75) this.#fail(c, 'in string escape code');
    for (let k = 0; k < 4; k++) {
      const h = this.#peek();
      if (!isHex(h)) this.#fail(h, 'in \\u hexadecimal character escape');
      this.#i++;
    }
  }

  #digits(context: string): void {
    const c = this.#peek();
    if (!isDigit(c)) this.#fail(c, context);
    while (this.#i < this.#b.length && isDigit(this.#b[this.#i] ?? 0)) this.#i++;
  }

  #number(): void {
    if (this.#peek() === 0x2d) this.#i++;
    if (this.#peek() === 0x30) this.#i++;
    else this.#digits('in numeric literal');
    if (this.#b[this.#i] === 0x2e) {
      this.#i++;
      this.#digits('after decimal point in numeric literal');
    }
    const e = this.#b[this.#i];
    if (e === 0x65 || e === 0x45) {
      this.#i++;
      const sign = this.#peek();
      if (sign === 0x2b || sign === 0x2d) this.#i++;
      this.#digits('in exponent of numeric literal');
    }
  }

  #literal(word: string): void {
    this.#i++;
    for (let k = 1; k < word.length; k++) {
      const c = this.#peek();
      const want = word.charCodeAt(k);
      if (c !== want) this.#fail(c, `in literal ${word} (expecting ${quoteChar(want)})`);
      this.#i++;
    }
  }
}

/**
 * Null when `bytes` is one valid JSON value, else the message Go's json.Unmarshal gives; documents
 * nested deeper than `maxDepth` (Go's limit unless given) fail as Go's do past its limit.
 */
export function goJSONSyntaxError(bytes: Uint8Array, maxDepth = maxNestingDepth): string | null {
  try {
    new Scanner(bytes, maxDepth).checkTopLevel();
    return null;
  } catch (err) {
    if (err instanceof GoSyntaxError) return err.message;
    throw err;
  }
}

const typeNames: Readonly<Record<string, string>> = { string: 'string', number: 'number', boolean: 'bool' };

/** The JSON type name Go's UnmarshalTypeError reports for a decoded value. */
export function goJSONTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeNames[typeof value] ?? 'object';
}
