// The error Go's json.Unmarshal gives when decoding into map[string]interface{}, for the dockercfg
// checks of ValidateSecret: the first syntax error its scanner meets, or a type mismatch.

class SyntaxErr extends Error {}

/** Go's quoteChar: `'x'`, with `'\''` and `'"'` special-cased, others as strconv.Quote would. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const q = JSON.stringify(c);
  return `'${q.slice(1, -1)}'`;
}

class Scanner {
  readonly #s: string;
  #i = 0;

  constructor(s: string) {
    this.#s = s;
  }

  #fail(context: string): never {
    if (this.#i >= this.#s.length) throw new SyntaxErr('unexpected end of JSON input');
    throw new SyntaxErr(`invalid character ${quoteChar(this.#s[this.#i] ?? '')} ${context}`);
  }

  #ws(): void {
    while (this.#i < this.#s.length && ' \t\r\n'.includes(this.#s[this.#i] ?? '')) this.#i++;
  }

  #peek(): string {
    return this.#s[this.#i] ?? '';
  }

  value(): void {
    this.#ws();
    const c = this.#peek();
    if (c === '{') {
      this.#object();
      return;
    }
    if (c === '[') {
      this.#array();
      return;
    }
    if (c === '"') {
      this.#string();
      return;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      this.#number();
      return;
    }
    for (const lit of ['true', 'false', 'null']) {
      if (c !== lit[0]) continue;
      for (const expected of lit) {
        if (this.#peek() !== expected) this.#fail(`in literal ${lit} (expecting ${quoteChar(expected)})`);
        this.#i++;
      }
      return;
    }
    this.#fail('looking for beginning of value');
  }

  #object(): void {
    this.#i++;
    this.#ws();
    if (this.#peek() === '}') {
      this.#i++;
      return;
    }
    for (;;) {
      this.#ws();
      if (this.#peek() !== '"') this.#fail('looking for beginning of object key string');
      this.#string();
      this.#ws();
      if (this.#peek() !== ':') this.#fail('after object key');
      this.#i++;
      this.value();
      this.#ws();
      const c = this.#peek();
      this.#i++;
      if (c === '}') return;
      if (c !== ',') {
        this.#i--;
        this.#fail('after object key:value pair');
      }
    }
  }

  #array(): void {
    this.#i++;
    this.#ws();
    if (this.#peek() === ']') {
      this.#i++;
      return;
    }
    for (;;) {
      this.value();
      this.#ws();
      const c = this.#peek();
      this.#i++;
      if (c === ']') return;
      if (c !== ',') {
        this.#i--;
        this.#fail('after array element');
      }
    }
  }

  #string(): void {
    this.#i++;
    for (;;) {
      const c = this.#peek();
      if (c === '') this.#fail('in string literal');
      if (c === '"') {
        this.#i++;
        return;
      }
      if (c < ' ') this.#fail('in string literal');
      this.#i++;
      if (c === '\\') {
        const e = this.#peek();
        if (!'"\\/bfnrtu'.includes(e) || e === '') this.#fail('in string escape code');
        this.#i++;
        if (e === 'u') {
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(this.#peek())) this.#fail('in \\u hexadecimal character escape');
            this.#i++;
          }
        }
      }
    }
  }

  #number(): void {
    if (this.#peek() === '-') this.#i++;
    if (this.#peek() === '0') this.#i++;
    else if (this.#peek() >= '1' && this.#peek() <= '9') while (/[0-9]/.test(this.#peek())) this.#i++;
    else this.#fail('in numeric literal');
    if (this.#peek() === '.') {
      this.#i++;
      if (!/[0-9]/.test(this.#peek())) this.#fail('after decimal point in numeric literal');
      while (/[0-9]/.test(this.#peek())) this.#i++;
    }
    if (this.#peek() === 'e' || this.#peek() === 'E') {
      this.#i++;
      if (this.#peek() === '+' || this.#peek() === '-') this.#i++;
      if (!/[0-9]/.test(this.#peek())) this.#fail('in exponent of numeric literal');
      while (/[0-9]/.test(this.#peek())) this.#i++;
    }
  }

  end(): void {
    this.#ws();
    if (this.#i < this.#s.length) this.#fail('after top-level value');
  }
}

const goTypeNames: Readonly<Record<string, string>> = { string: 'string', number: 'number', boolean: 'bool' };

/** The message of json.Unmarshal(data, &map[string]interface{}{}), or undefined when it succeeds. */
export function unmarshalObjectError(text: string): string | undefined {
  try {
    const scanner = new Scanner(text);
    scanner.value();
    scanner.end();
  } catch (err) {
    if (err instanceof SyntaxErr) return err.message;
    throw err;
  }
  const value: unknown = JSON.parse(text);
  if (value === null || (typeof value === 'object' && !Array.isArray(value))) return undefined;
  const what = Array.isArray(value) ? 'array' : (goTypeNames[typeof value] ?? 'value');
  return `json: cannot unmarshal ${what} into Go value of type map[string]interface {}`;
}
