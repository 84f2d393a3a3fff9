// The template parser of client-go's util/jsonpath (parser.go): `{...}` actions holding fields, array
// slices, unions, filters, quoted text and number/bool literals; anything outside braces is text.
import { goSimpleEscapes } from '../go-escapes.js';

export interface SliceParam {
  readonly known: boolean;
  readonly value: number;
  /** The end of `[i]`, derived as i+1 by the parser. */
  readonly derived: boolean;
}

export type JSONPathNode =
  | { readonly type: 'list'; readonly nodes: JSONPathNode[] }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'field'; readonly name: string }
  | { readonly type: 'array'; readonly params: readonly [SliceParam, SliceParam, SliceParam] }
  | { readonly type: 'filter'; readonly left: ListNode; readonly right: ListNode; readonly operator: string }
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'wildcard' }
  | { readonly type: 'recursive' }
  | { readonly type: 'union'; readonly nodes: readonly ListNode[] }
  | { readonly type: 'identifier'; readonly name: string };

export type ListNode = Extract<JSONPathNode, { type: 'list' }>;

const EOF = -1;
const newList = (): ListNode => ({ type: 'list', nodes: [] });

const isSpace = (r: number): boolean => r === 0x20 || r === 0x09;
const isEndOfLine = (r: number): boolean => r === 0x0d || r === 0x0a;
const isDigit = (r: number): boolean => r >= 0 && /\p{Nd}/u.test(String.fromCodePoint(r));
const isAlphaNumeric = (r: number): boolean =>
  r >= 0 && (r === 0x5f || /[\p{L}\p{Nd}]/u.test(String.fromCodePoint(r)));
/** A character that may end an identifier or a field name. */
const isTerminator = (r: number): boolean =>
  r === EOF || isSpace(r) || isEndOfLine(r) || '.,[]$@{}'.includes(String.fromCodePoint(r));

/** Go's `%#U`: `U+0021 '!'`. */
function goRuneString(r: number): string {
  const code = `U+${r.toString(16).toUpperCase().padStart(4, '0')}`;
  return /\P{C}/u.test(String.fromCodePoint(r)) ? `${code} '${String.fromCodePoint(r)}'` : code;
}

const DICT_KEY = /^'([^']*)'$/;
const SLICE = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const FILTER = /^([^!<>=]+)([!<>=]+)(.+?)$/;
const INT = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const GO_INT_MAX = 2n ** 63n;

/** Go's strconv.Atoi, undefined where it fails (not a number, or beyond int64). */
function atoi(s: string): number | undefined {
  if (!INT.test(s)) return undefined;
  const n = BigInt(s);
  return n >= GO_INT_MAX || n < -GO_INT_MAX ? undefined : Number(n);
}

class Parser {
  readonly root: ListNode = newList();
  readonly #input: string;
  #pos = 0;
  #start = 0;
  #width = 0;

  constructor(input: string) {
    this.#input = input;
  }

  #next(): number {
    if (this.#pos >= this.#input.length) {
      this.#width = 0;
      return EOF;
    }
    const r = this.#input.codePointAt(this.#pos) ?? EOF;
    this.#width = r > 0xffff ? 2 : 1;
    this.#pos += this.#width;
    return r;
  }

  #backup(): void {
    this.#pos -= this.#width;
  }

  #peek(): number {
    const r = this.#next();
    this.#backup();
    return r;
  }

  #consumeText(): string {
    const value = this.#input.slice(this.#start, this.#pos);
    this.#start = this.#pos;
    return value;
  }

  #at(prefix: string): boolean {
    return this.#input.startsWith(prefix, this.#pos);
  }

  /** Whether the character before the one just read is a backslash (an escaped quote). */
  #escaped(): boolean {
    return this.#input[this.#pos - 2] === '\\';
  }

  parseText(): void {
    for (;;) {
      if (this.#at('{')) {
        if (this.#pos > this.#start) this.root.nodes.push({ type: 'text', text: this.#consumeText() });
        this.#pos += 1;
        this.#consumeText();
        const action = newList();
        this.root.nodes.push(action);
        this.#parseInsideAction(action);
        continue;
      }
      if (this.#next() === EOF) break;
    }
    if (this.#pos > this.#start) this.root.nodes.push({ type: 'text', text: this.#consumeText() });
  }

  /** Parses one action up to and including its closing brace. */
  #parseInsideAction(cur: ListNode): void {
    for (;;) {
      if (this.#at('}')) {
        this.#pos += 1;
        this.#consumeText();
        return;
      }
      if (this.#at('[?(')) {
        this.#parseFilter(cur);
        continue;
      }
      if (this.#at('..')) {
        this.#parseRecursive(cur);
        continue;
      }
      const r = this.#next();
      if (r === EOF || isEndOfLine(r)) throw new Error('unclosed action');
      if (r === 0x20 || r === 0x40 || r === 0x24) {
        // a space, `@` (the current object) or `$` (the root): nothing to add
        this.#consumeText();
      } else if (r === 0x5b) this.#parseArray(cur);
      else if (r === 0x22 || r === 0x27) this.#parseQuote(cur, r);
      else if (r === 0x2e) this.#parseField(cur);
      else if (r === 0x2b || r === 0x2d || isDigit(r)) {
        this.#backup();
        this.#parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.#backup();
        this.#parseIdentifier(cur);
      } else throw new Error(`unrecognized character in action: ${goRuneString(r)}`);
    }
  }

  #parseIdentifier(cur: ListNode): void {
    while (!isTerminator(this.#next()));
    this.#backup();
    const value = this.#consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  #parseRecursive(cur: ListNode): void {
    if (cur.nodes.at(-1)?.type === 'recursive') throw new Error('invalid multiple recursive descent');
    this.#pos += 2;
    this.#consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.#peek())) this.#parseField(cur);
  }

  #parseNumber(cur: ListNode): void {
    const sign = this.#peek();
    if (sign === 0x2b || sign === 0x2d) this.#next();
    for (;;) {
      const r = this.#next();
      if (r !== 0x2e && !isDigit(r)) break;
    }
    this.#backup();
    const value = this.#consumeText();
    const i = atoi(value);
    if (i !== undefined) cur.nodes.push({ type: 'int', value: i });
    else if (FLOAT.test(value)) cur.nodes.push({ type: 'float', value: Number(value) });
    else throw new Error(`cannot parse number ${value}`);
  }

  #parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.#next();
      if (r === EOF || r === 0x0a) throw new Error('unterminated array');
      if (r === 0x5d) break;
    }
    let text = this.#consumeText().slice(1, -1);
    if (text === '*') text = ':';

    const parts = text.split(',');
    if (parts.length > 1) {
      const nodes = parts.map((part) => parseAction(`[${part.replace(/^ +| +$/g, '')}]`));
      cur.nodes.push({ type: 'union', nodes });
      return;
    }
    const key = DICT_KEY.exec(text);
    if (key) {
      // kube parses `['a.b']` as `.a.b`; a literal dot in a key is written `a\.b`.
      cur.nodes.push(...parseAction(`.${key[1] ?? ''}`).nodes);
      return;
    }
    const slice = SLICE.exec(text);
    if (!slice) throw new Error(`invalid array index ${text}`);
    cur.nodes.push({ type: 'array', params: sliceParams(slice.slice(1)) });
  }

  #parseFilter(cur: ListNode): void {
    this.#pos += 3;
    this.#consumeText();
    let begin = false;
    let end = false;
    let pair = 0;
    for (;;) {
      const r = this.#next();
      if (r === EOF || r === 0x0a) throw new Error('unterminated filter');
      if (r === 0x22 || r === 0x27) {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (!this.#escaped() && r === pair) end = true;
      } else if (r === 0x29 && begin === end) break;
    }
    if (this.#next() !== 0x5d) throw new Error('unclosed array expect ]');
    const text = this.#consumeText().slice(0, -2);
    const match = FILTER.exec(text);
    if (!match) {
      cur.nodes.push({ type: 'filter', left: parseAction(text), right: newList(), operator: 'exists' });
      return;
    }
    const [, left = '', operator = '', right = ''] = match;
    cur.nodes.push({ type: 'filter', left: parseAction(left), right: parseAction(right), operator });
  }

  #parseQuote(cur: ListNode, quote: number): void {
    for (;;) {
      const r = this.#next();
      if (r === EOF || r === 0x0a) throw new Error('unterminated quoted string');
      if (r === quote && !this.#escaped()) break;
    }
    const value = this.#consumeText();
    cur.nodes.push({ type: 'text', text: unquoteExtend(value) });
  }

  #parseField(cur: ListNode): void {
    this.#consumeText();
    for (;;) {
      const r = this.#next();
      if (r === 0x5c) this.#next();
      else if (isTerminator(r)) {
        this.#backup();
        break;
      }
    }
    const value = this.#consumeText();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', name: value.replaceAll('\\', '') });
  }
}

function sliceParams(groups: readonly (string | undefined)[]): [SliceParam, SliceParam, SliceParam] {
  const params: SliceParam[] = [];
  for (let i = 0; i < 3; i++) {
    let text = groups[i] ?? '';
    if (text === '') {
      const start = params[0]?.value ?? 0;
      params.push(
        i === 1
          ? { known: true, value: start + 1, derived: true }
          : { known: false, value: 0, derived: false },
      );
      continue;
    }
    if (i > 0) text = text.slice(1);
    if (i > 0 && text === '') {
      params.push({ known: false, value: 0, derived: false });
      continue;
    }
    const value = atoi(text);
    if (value === undefined) throw new Error(`array index ${text} is not a number`);
    params.push({ known: true, value, derived: false });
  }
  const [start, end, step] = params as [SliceParam, SliceParam, SliceParam];
  return [start, end, step];
}

/** The action list of `{text}` (parseAction): filter operands, union members and dict keys. */
function parseAction(text: string): ListNode {
  const parser = new Parser(`{${text}}`);
  parser.parseText();
  const first = parser.root.nodes[0];
  return first?.type === 'list' ? first : newList();
}

/** strconv.Unquote that also takes single-quoted strings (UnquoteExtend). */
export function unquoteExtend(quoted: string): string {
  const quote = quoted[0];
  if (quoted.length < 2 || (quote !== '"' && quote !== "'") || quoted.at(-1) !== quote) {
    throw new Error(`unquote string ${quoted} error invalid syntax`);
  }
  const body = quoted.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? '';
    if (c === quote) throw new Error(`unquote string ${quoted} error invalid syntax`);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[i + 1] ?? '';
    const hexLength = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    const simple = goSimpleEscapes[e];
    if (simple !== undefined) {
      out += simple;
      i += 1;
    } else if (e === quote) {
      out += e;
      i += 1;
    } else if (hexLength > 0 && /^[0-9a-fA-F]+$/.test(body.slice(i + 2, i + 2 + hexLength))) {
      const code = parseInt(body.slice(i + 2, i + 2 + hexLength), 16);
      if (code > 0x10ffff || body.length < i + 2 + hexLength) {
        throw new Error(`unquote string ${quoted} error invalid syntax`);
      }
      out += String.fromCodePoint(code);
      i += 1 + hexLength;
    } else if (/^[0-3][0-7]{2}$/.test(body.slice(i + 1, i + 4))) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else throw new Error(`unquote string ${quoted} error invalid syntax`);
  }
  return out;
}

/** Parses a client-go JSONPath template (`{.spec.replicas}`, text outside braces kept as text). */
export function parseJSONPathTemplate(template: string): ListNode {
  const parser = new Parser(template);
  parser.parseText();
  return parser.root;
}
