// The label selector lexer of k8s.io/apimachinery/pkg/labels/selector.go, byte for byte.

export const tokens = [
  'error',
  'endOfString',
  'closedPar',
  'comma',
  'doesNotExist',
  'doubleEquals',
  'equals',
  'greaterThan',
  'identifier',
  'in',
  'lessThan',
  'notEquals',
  'notIn',
  'openPar',
] as const;
export type Token = (typeof tokens)[number];

export interface ScannedItem {
  readonly token: Token;
  readonly literal: string;
}

// A Map, not an object: an identifier may be spelled `constructor`.
const string2token: ReadonlyMap<string, Token> = new Map<string, Token>([
  [')', 'closedPar'],
  [',', 'comma'],
  ['!', 'doesNotExist'],
  ['==', 'doubleEquals'],
  ['=', 'equals'],
  ['>', 'greaterThan'],
  ['in', 'in'],
  ['<', 'lessThan'],
  ['!=', 'notEquals'],
  ['notin', 'notIn'],
  ['(', 'openPar'],
]);

function isWhitespace(ch: number): boolean {
  return ch === 0x20 || ch === 0x09 || ch === 0x0d || ch === 0x0a;
}

function isSpecialSymbol(ch: number): boolean {
  // = ! ( ) , > <
  return (
    ch === 0x3d || ch === 0x21 || ch === 0x28 || ch === 0x29 || ch === 0x2c || ch === 0x3e || ch === 0x3c
  );
}

/** Splits a selector into tokens. Like kube's, a NUL character reads as the end of input. */
export class Lexer {
  readonly #s: string;
  #pos = 0;

  constructor(s: string) {
    this.#s = s;
  }

  #read(): number {
    if (this.#pos >= this.#s.length) return 0;
    return this.#s.charCodeAt(this.#pos++);
  }

  #unread(): void {
    this.#pos--;
  }

  #scanIDOrKeyword(): ScannedItem {
    const start = this.#pos;
    let end: number;
    for (;;) {
      const before = this.#pos;
      const ch = this.#read();
      if (ch === 0) {
        end = before;
        break;
      }
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.#unread();
        end = before;
        break;
      }
    }
    const literal = this.#s.slice(start, end);
    return { token: string2token.get(literal) ?? 'identifier', literal };
  }

  #scanSpecialSymbol(): ScannedItem {
    let buffer = '';
    let last: ScannedItem | undefined;
    for (;;) {
      const ch = this.#read();
      if (ch === 0) break;
      if (!isSpecialSymbol(ch)) {
        this.#unread();
        break;
      }
      buffer += String.fromCharCode(ch);
      const token = string2token.get(buffer);
      if (token !== undefined) {
        last = { token, literal: buffer };
      } else if (last !== undefined) {
        this.#unread();
        break;
      }
    }
    return last ?? { token: 'error', literal: `error expected: keyword found '${buffer}'` };
  }

  /** The next token and its literal. */
  lex(): ScannedItem {
    let ch = this.#read();
    while (isWhitespace(ch)) ch = this.#read();
    if (ch === 0) return { token: 'endOfString', literal: '' };
    this.#unread();
    return isSpecialSymbol(ch) ? this.#scanSpecialSymbol() : this.#scanIDOrKeyword();
  }
}
