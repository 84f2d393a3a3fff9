// Go's strconv.Quote (the %q verb), which kube uses to quote field paths in strict errors.

const simpleEscapes: Readonly<Record<number, string>> = {
  0x07: '\\a',
  0x08: '\\b',
  0x0c: '\\f',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x0b: '\\v',
  0x5c: '\\\\',
  0x22: '\\"',
};

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

function isPrintable(cp: number): boolean {
  if (cp < 0x20 || cp === 0x7f) return false;
  if (cp >= 0x80 && cp < 0xa0) return false;
  if (cp === 0xad || cp === 0xfeff || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f))
    return false;
  return !(cp >= 0xd800 && cp <= 0xdfff);
}

export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    const simple = simpleEscapes[cp];
    if (simple !== undefined) out += simple;
    else if (isPrintable(cp)) out += ch;
    else if (cp < 0x80) out += `\\x${hex(cp, 2)}`;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd';
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}
