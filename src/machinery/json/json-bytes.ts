// Walking JSON text as bytes without parsing it: the members of a served object are found and cut
// out of the stored bytes (served-json.ts, without-type-meta.ts) at a fraction of a parse's cost.

export const quote = 0x22;
export const backslash = 0x5c;
export const comma = 0x2c;
export const colon = 0x3a;
export const openBrace = 0x7b;
export const closeBrace = 0x7d;
export const openBracket = 0x5b;
export const closeBracket = 0x5d;

export const isSpace = (b: number | undefined): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

export function skipSpace(buf: Buffer, i: number): number {
  while (isSpace(buf[i])) i++;
  return i;
}

/** Past the string that starts at `i` (its opening quote); -1 when unterminated. */
export function skipString(buf: Buffer, i: number): number {
  for (i++; i < buf.length; i++) {
    const b = buf[i];
    if (b === backslash) i++;
    else if (b === quote) return i + 1;
  }
  return -1;
}

/** Past the value that starts at `i`: a string, an object or array (nested), or a bare literal; -1 when malformed. */
export function skipValue(buf: Buffer, i: number): number {
  const first = buf[i];
  if (first === quote) return skipString(buf, i);
  if (first !== openBrace && first !== openBracket) {
    while (i < buf.length && buf[i] !== comma && buf[i] !== closeBrace && buf[i] !== closeBracket) i++;
    return i;
  }
  let depth = 0;
  for (; i < buf.length; i++) {
    const b = buf[i];
    if (b === quote) {
      i = skipString(buf, i) - 1;
      if (i < 0) return -1;
    } else if (b === openBrace || b === openBracket) depth++;
    else if (b === closeBrace || b === closeBracket) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
