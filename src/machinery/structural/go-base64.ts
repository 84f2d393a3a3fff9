// Validates base64 as Go's base64.StdEncoding.Decode does, to report its CorruptInputError
// ("illegal base64 data at input byte N") for []byte fields such as Secret.data.
// Go skips \r and \n anywhere, requires padding, and rejects data after the padding.

const alphabet = new Int16Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  .split('')
  .forEach((c, i) => (alphabet[c.charCodeAt(0)] = i));

const isNewline = (c: number): boolean => c === 0x0a || c === 0x0d;

/** Returns Go's error text for `s`, or undefined when Go would decode it. */
export function goBase64Error(s: string): string | undefined {
  const fail = (at: number): string => `illegal base64 data at input byte ${at}`;
  let i = 0;
  const n = s.length;
  for (;;) {
    // Read one quantum of up to four symbols.
    let got = 0;
    while (got < 4) {
      while (i < n && isNewline(s.charCodeAt(i))) i++;
      if (i === n) {
        if (got === 0) return undefined;
        return fail(i - got);
      }
      const at = i;
      const c = s.charCodeAt(i++);
      if (c === 0x3d) return checkPadding(s, { at, got });
      if (c >= 128 || alphabet[c] === -1) return fail(at);
      got++;
    }
  }
}

function checkPadding(s: string, pad: { at: number; got: number }): string | undefined {
  const { at, got } = pad;
  const fail = (offset: number): string => `illegal base64 data at input byte ${offset}`;
  // '=' may stand only for the third or fourth symbol of a quantum.
  if (got < 2) return fail(at);
  let i = at + 1;
  const skip = (): void => {
    while (i < s.length && isNewline(s.charCodeAt(i))) i++;
  };
  if (got === 2) {
    skip();
    if (i === s.length) return fail(s.length);
    if (s.charCodeAt(i) !== 0x3d) return fail(i - 1);
    i++;
  }
  skip();
  if (i < s.length) return fail(i);
  return undefined;
}
