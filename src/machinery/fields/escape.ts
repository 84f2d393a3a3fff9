// Field selector value escaping, as EscapeValue and UnescapeValue in
// k8s.io/apimachinery/pkg/fields/selector.go.

/** Backslash-escapes `\`, `,` and `=` so any literal can stand as a selector value. */
export function escapeValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

export type UnescapeResult =
  { readonly ok: true; readonly value: string } | { readonly ok: false; readonly message: string };

/**
 * The literal behind an escaped value. Unknown escapes, a trailing backslash and bare `,` or
 * `=` fail with kube's messages (which print the bare character as its code point).
 */
export function unescapeValue(s: string): UnescapeResult {
  if (!/[\\,=]/.test(s)) return { ok: true, value: s };
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        return { ok: false, message: `invalid field selector: invalid escape sequence: \\${c}` };
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      return {
        ok: false,
        message: `invalid field selector: unescaped character in value: ${c.charCodeAt(0)}`,
      };
    } else {
      out += c;
    }
  }
  if (inSlash) return { ok: false, message: 'invalid field selector: invalid escape sequence: \\' };
  return { ok: true, value: out };
}
