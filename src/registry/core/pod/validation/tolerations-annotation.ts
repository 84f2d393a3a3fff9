// The tolerations annotation as kube 1.33 reads it (GetTolerationsFromPodAnnotations in
// pkg/apis/core/helper/helpers.go, ValidateTolerationsInPodAnnotations in validation.go): Go's
// json.Unmarshal into the internal []core.Toleration. Those fields carry no json tags, so a member
// names a field by its Go name in any case ("key", "KEY" and "Key" all set Key; the last one wins),
// other members are ignored, and a type error names the Go field (Toleration.TolerationSeconds).
// Go reports a syntax error first, then the first type error in document order; so does this reader.
import type { Toleration } from '../../../../api/core/v1/pod.js';
import { goJSONSyntaxError } from '../../../../machinery/json/go-json-syntax.js';
import { parseWellFormed } from '../../../../machinery/json/well-formed.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../../machinery/validation/index.js';
import { validateTolerations } from './spec-fields.js';

export const tolerationsAnnotationKey = 'scheduler.alpha.kubernetes.io/tolerations';

type StringField = 'key' | 'operator' | 'value' | 'effect';

/** The Go fields of core.Toleration by folded name: our member and the Go type errors name. */
const fields: ReadonlyMap<
  string,
  { readonly go: string; readonly member: StringField; readonly type: string }
> = new Map([
  ['KEY', { go: 'Key', member: 'key', type: 'string' }],
  ['OPERATOR', { go: 'Operator', member: 'operator', type: 'core.TolerationOperator' }],
  ['VALUE', { go: 'Value', member: 'value', type: 'string' }],
  ['EFFECT', { go: 'Effect', member: 'effect', type: 'core.TaintEffect' }],
] as const);
const secondsName = 'TOLERATIONSECONDS';

/**
 * encoding/json's foldName: ASCII upper-cased, and the two non-ASCII letters whose case folds reach
 * ASCII (ſ to S, the Kelvin sign to K); any other letter matches no field name here.
 */
function foldName(key: string): string {
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) out += String.fromCharCode(c - 0x20);
    else if (c === 0x17f) out += 'S';
    else if (c === 0x212a) out += 'K';
    else out += key[i] ?? '';
  }
  return out;
}

const minInt64 = -(2n ** 63n);
const maxInt64 = 2n ** 63n - 1n;
const integer = /^-?[0-9]+$/;
const scalarChar = /[-+.0-9a-zA-Z]/;

/** strconv.ParseInt(text, 10, 64) on a JSON number literal: undefined when Go refuses it. */
function parseInt64(text: string): number | undefined {
  if (!integer.test(text)) return undefined;
  const n = BigInt(text);
  return n < minInt64 || n > maxInt64 ? undefined : Number(n);
}

/** A cursor over JSON text that Go's scanner has already accepted. */
class Reader {
  readonly #s: string;
  #i = 0;

  constructor(text: string) {
    this.#s = text;
  }

  /** The first character of the next value, after white space. */
  peek(): string {
    for (;;) {
      const c = this.#s[this.#i];
      if (c !== ' ' && c !== '\t' && c !== '\r' && c !== '\n') return c ?? '';
      this.#i++;
    }
  }

  /** Takes one character (a bracket, a comma or a colon) after white space. */
  take(): string {
    const c = this.peek();
    this.#i++;
    return c;
  }

  /** A string's value, its lone surrogates read as Go reads them. */
  string(): string {
    this.peek();
    const start = this.#i;
    this.#i++;
    while (this.#s[this.#i] !== '"') this.#i += this.#s[this.#i] === '\\' ? 2 : 1;
    this.#i++;
    return parseWellFormed(this.#s.slice(start, this.#i)) as string;
  }

  /** A number's literal text, or a literal word (true, false, null). */
  scalar(): string {
    this.peek();
    const start = this.#i;
    while (scalarChar.test(this.#s[this.#i] ?? '')) this.#i++;
    return this.#s.slice(start, this.#i);
  }

  skip(): void {
    const c = this.peek();
    if (c === '"') this.string();
    else if (c !== '[' && c !== '{') this.scalar();
    else {
      this.#i++;
      if (this.peek() === (c === '[' ? ']' : '}')) {
        this.#i++;
        return;
      }
      do {
        if (c === '{') {
          this.string();
          this.take();
        }
        this.skip();
      } while (this.take() === ',');
    }
  }
}

/** How Go's UnmarshalTypeError names the JSON value that starts with `c`. */
function kindOf(c: string): string {
  if (c === '{') return 'object';
  if (c === '[') return 'array';
  if (c === '"') return 'string';
  if (c === 't' || c === 'f') return 'bool';
  return 'number';
}

const fieldError = (value: string, go: string, type: string): string =>
  `json: cannot unmarshal ${value} into Go struct field Toleration.${go} of type ${type}`;

/** TolerationSeconds, a *int64: null clears it, an integer literal in range sets it. */
function readSeconds(r: Reader, t: Toleration): string | undefined {
  const c = r.peek();
  if (c === '"' || c === '[' || c === '{') return fieldError(kindOf(c), 'TolerationSeconds', 'int64');
  const literal = r.scalar();
  if (c === 'n') {
    delete t.tolerationSeconds;
    return undefined;
  }
  if (c === 't' || c === 'f') return fieldError('bool', 'TolerationSeconds', 'int64');
  const n = parseInt64(literal);
  if (n === undefined) return fieldError(`number ${literal}`, 'TolerationSeconds', 'int64');
  t.tolerationSeconds = n;
  return undefined;
}

/** One member of a toleration object, set on `t`; Go's type error when its value does not fit. */
function readMember(r: Reader, t: Toleration, name: string): string | undefined {
  const folded = foldName(name);
  if (folded === secondsName) return readSeconds(r, t);
  const field = fields.get(folded);
  const c = r.peek();
  if (field === undefined) r.skip();
  else if (c === '"') t[field.member] = r.string();
  else if (c === 'n')
    r.scalar(); // null leaves a string as it was
  else return fieldError(kindOf(c), field.go, field.type);
  return undefined;
}

/** One toleration object into `out`; the first type error inside it, if any. */
function readToleration(r: Reader, out: Toleration[]): string | undefined {
  const t: Toleration = {};
  out.push(t);
  r.take();
  if (r.peek() === '}') {
    r.take();
    return undefined;
  }
  do {
    const name = r.string();
    r.take();
    const err = readMember(r, t, name);
    if (err !== undefined) return err;
  } while (r.take() === ',');
  return undefined;
}

/** The annotation's value into `out`; the first type error, if any. */
function readTolerations(r: Reader, out: Toleration[]): string | undefined {
  const c = r.peek();
  if (c === 'n') return undefined;
  if (c !== '[') return `json: cannot unmarshal ${kindOf(c)} into Go value of type []core.Toleration`;
  r.take();
  if (r.peek() === ']') return undefined;
  do {
    const e = r.peek();
    if (e === '{') {
      const err = readToleration(r, out);
      if (err !== undefined) return err;
    } else if (e === 'n') {
      r.scalar();
      out.push({}); // a null element is a zero Toleration
    } else return `json: cannot unmarshal ${kindOf(e)} into Go value of type core.Toleration`;
  } while (r.take() === ',');
  return undefined;
}

/** The annotation's tolerations, or the text of the error json.Unmarshal gives for it. */
export function decodeTolerationsAnnotation(
  text: string,
): { readonly tolerations: Toleration[] } | { readonly error: string } {
  const syntax = goJSONSyntaxError(Buffer.from(text, 'utf8'));
  if (syntax !== null) return { error: syntax };
  const tolerations: Toleration[] = [];
  const error = readTolerations(new Reader(text), tolerations);
  return error === undefined ? { tolerations } : { error };
}

/** ValidateTolerationsInPodAnnotations: decodable, then each toleration valid (under a child path). */
export function validateTolerationsAnnotation(text: string, path: FieldPath): ErrorList {
  const decoded = decodeTolerationsAnnotation(text);
  if ('error' in decoded) return [FieldError.invalid(path, tolerationsAnnotationKey, decoded.error)];
  return validateTolerations(decoded.tolerations, path.child(tolerationsAnnotationKey));
}
