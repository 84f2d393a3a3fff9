// Where an expression uses CEL's optional syntax (cel-go's OptionalTypes: `a.?b`, `a[?i]`,
// `[a, ?b]`, `{?k: v}`), which @bufbuild/cel's parser does not read. A scan over the tokens finds
// each `?` that follows a `.`, an index's `[`, or an element's start inside a list or map literal,
// and blanks it: the text left parses as the same expression without the marks, with every offset
// unchanged, so positions and error columns stay the source's (optional-syntax.ts puts the marks
// back into the parsed tree). A `?` anywhere else is the conditional operator's, left as it is.

/** The optional marks of an expression, by the offset of the character the `?` follows. */
export interface OptionalMarks {
  /** `a.?b`: the offsets of the dots. */
  readonly selects: ReadonlySet<number>;
  /** `a[?i]`: the offsets of the brackets. */
  readonly indexes: ReadonlySet<number>;
  /** `[a, ?b]`: per list's bracket, the positions of its optional elements. */
  readonly elements: ReadonlyMap<number, readonly number[]>;
  /** `{?k: v}`: per map's or message's brace, the positions of its optional entries. */
  readonly entries: ReadonlyMap<number, readonly number[]>;
}

interface Open {
  readonly char: '(' | '[' | '{';
  readonly at: number;
  /** A `[` that opens a list literal, not an index. */
  readonly list: boolean;
  commas: number;
}

const isIdentStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const stringPrefixes = new Set(['r', 'R', 'b', 'B', 'rb', 'rB', 'Rb', 'RB', 'br', 'bR', 'Br', 'BR']);

/** The offset just past the string literal whose quote is at `i` (its end when unterminated). */
function stringEnd(source: string, i: number, raw: boolean): number {
  const q = source.charAt(i);
  const triple = source.startsWith(q.repeat(3), i);
  const close = triple ? q.repeat(3) : q;
  let j = i + close.length;
  while (j < source.length) {
    if (!raw && source.charAt(j) === '\\') j += 2;
    else if (source.startsWith(close, j)) return j + close.length;
    else if (!triple && source.charAt(j) === '\n') return j;
    else j++;
  }
  return source.length;
}

/** The offset just past the number literal starting at `i` (digits, a fraction, an exponent, a suffix). */
function numberEnd(source: string, i: number): number {
  let j = i;
  while (j < source.length && /[0-9A-Za-z_]/.test(source.charAt(j))) {
    const c = source.charAt(j);
    j++;
    if ((c === 'e' || c === 'E') && /[+-]/.test(source.charAt(j))) j++;
  }
  if (source.charAt(j) === '.' && isDigit(source.charAt(j + 1))) return numberEnd(source, j + 1);
  return j;
}

class Scan {
  readonly selects = new Set<number>();
  readonly indexes = new Set<number>();
  readonly elements = new Map<number, number[]>();
  readonly entries = new Map<number, number[]>();
  readonly blanks: number[] = [];
  readonly #stack: Open[] = [];
  /** The offset of the last character that was not space or a comment, and whether it ended an operand. */
  #prev = -1;
  #operand = false;

  readonly source: string;

  constructor(source: string) {
    this.source = source;
  }

  run(): void {
    const s = this.source;
    let i = 0;
    while (i < s.length) {
      const c = s.charAt(i);
      if (/\s/.test(c)) i++;
      else if (s.startsWith('//', i)) i = s.indexOf('\n', i) === -1 ? s.length : s.indexOf('\n', i);
      else if (c === '"' || c === "'") i = this.#operandTo(i, stringEnd(s, i, false));
      else if (c === '`')
        i = this.#operandTo(i, s.indexOf('`', i + 1) === -1 ? s.length : s.indexOf('`', i + 1) + 1);
      else if (isDigit(c) || (c === '.' && !this.#operand && isDigit(s.charAt(i + 1))))
        i = this.#operandTo(i, numberEnd(s, i));
      else if (isIdentStart(c)) i = this.#identifier(i);
      else {
        this.#punctuation(c, i);
        i++;
      }
    }
  }

  #operandTo(start: number, end: number): number {
    this.#prev = end - 1;
    this.#operand = end > start;
    return end;
  }

  #identifier(i: number): number {
    const s = this.source;
    let j = i;
    while (j < s.length && isIdentPart(s.charAt(j))) j++;
    const q = s.charAt(j);
    if ((q === '"' || q === "'") && stringPrefixes.has(s.slice(i, j)))
      return this.#operandTo(i, stringEnd(s, j, /[rR]/.test(s.slice(i, j))));
    return this.#operandTo(i, j);
  }

  #punctuation(c: string, i: number): void {
    const top = this.#stack[this.#stack.length - 1];
    if (c === '?' && this.#optional(i, top)) return;
    if (c === '(' || c === '{' || c === '[') {
      this.#stack.push({ char: c, at: i, list: c === '[' && !this.#operand, commas: 0 });
    } else if (c === ')' || c === ']' || c === '}') {
      this.#stack.pop();
    } else if (c === ',' && top !== undefined) {
      top.commas++;
    }
    this.#prev = i;
    this.#operand = c === ')' || c === ']' || c === '}';
  }

  /** Marks and blanks the `?` at `i` when it is an optional mark; false for a conditional's. */
  #optional(i: number, top: Open | undefined): boolean {
    const before = this.source.charAt(this.#prev);
    if (before === '.') this.selects.add(this.#prev);
    else if (top === undefined || (before !== ',' && top.at !== this.#prev)) return false;
    else if (top.char === '[' && !top.list && before === '[') this.indexes.add(top.at);
    else if (top.char === '[' && top.list) push(this.elements, top.at, top.commas);
    else if (top.char === '{') push(this.entries, top.at, top.commas);
    else return false;
    this.blanks.push(i);
    return true;
  }
}

function push(m: Map<number, number[]>, key: number, value: number): void {
  const list = m.get(key);
  if (list === undefined) m.set(key, [value]);
  else list.push(value);
}

/**
 * The expression with its optional marks blanked, and where they were; undefined when it has
 * none (the common case: a scan, no copy).
 */
export function markOptionalSyntax(source: string): { text: string; marks: OptionalMarks } | undefined {
  if (!source.includes('?')) return undefined;
  const scan = new Scan(source);
  scan.run();
  if (scan.blanks.length === 0) return undefined;
  let text = source;
  for (const at of scan.blanks) text = `${text.slice(0, at)} ${text.slice(at + 1)}`;
  return {
    text,
    marks: { selects: scan.selects, indexes: scan.indexes, elements: scan.elements, entries: scan.entries },
  };
}
