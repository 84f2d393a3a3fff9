// Regular expressions that users write (an OpenAPI schema's `pattern`, CEL's matches(), find() and
// findAll()) are Go's regexp in kube-apiserver: RE2 syntax, leftmost-first matching, Go's error
// texts. re2js ports Go's regexp, so it accepts and refuses what Go does with the same messages
// ("error parsing regexp: invalid or unsupported Perl syntax: `(?=`"). ECMAScript's RegExp would
// refuse `(?i)` and `\z` and accept lookahead and backreferences. The package is required on first
// use: most servers never compile a user's pattern, and a script run from the V8 code cache has no
// import() (src/cmd/code-cache.ts).
import { createRequire } from 'node:module';
import type * as Re2 from 're2js';

const requireCommonJS = createRequire(import.meta.url);
let loaded: typeof Re2 | undefined;

function re2js(): typeof Re2 {
  loaded ??= requireCommonJS('re2js') as typeof Re2;
  return loaded;
}

/** A pattern Go's regexp.Compile refuses; the message is Go's error text. */
export class RegexpSyntaxError extends Error {
  override readonly name = 'RegexpSyntaxError';
}

/** The width in UTF-16 units of the code point at `pos`: Go steps over a rune, not a byte. */
function runeWidth(s: string, pos: number): number {
  const c = s.charCodeAt(pos);
  if (c >= 0xd800 && c <= 0xdbff && pos + 1 < s.length) {
    const d = s.charCodeAt(pos + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

/** A compiled pattern with the Go methods kube calls on it. */
export class GoRegexp {
  readonly #re: Re2.RE2JS;

  private constructor(re: Re2.RE2JS) {
    this.#re = re;
  }

  /** regexp.Compile; throws RegexpSyntaxError with Go's message. */
  static compile(pattern: string): GoRegexp {
    const lib = re2js();
    try {
      return new GoRegexp(lib.RE2JS.compile(pattern));
    } catch (err) {
      if (err instanceof lib.RE2JSException) throw new RegexpSyntaxError(err.message);
      throw err;
    }
  }

  /** MatchString: whether the pattern matches anywhere in s. */
  matchString(s: string): boolean {
    return this.#re.test(s);
  }

  /** FindString: the leftmost match, or '' when there is none. */
  findString(s: string): string {
    const m = this.#re.matcher(s);
    return m.find() ? (m.group() ?? '') : '';
  }

  /**
   * FindAllString: successive non-overlapping matches, at most n of them when n >= 0. As in Go, an
   * empty match right after the previous match is skipped (JavaScript and Java keep it).
   */
  findAllString(s: string, n: number): string[] {
    const out: string[] = [];
    const m = this.#re.matcher(s);
    let pos = 0;
    let prevEnd = -1;
    while ((n < 0 || out.length < n) && pos <= s.length && m.find(pos)) {
      const start = m.start();
      const end = m.end();
      const accept = !(start === end && start === prevEnd);
      pos = start === end ? end + (end < s.length ? runeWidth(s, end) : 1) : end;
      prevEnd = end;
      if (accept) out.push(s.slice(start, end));
    }
    return out;
  }
}
