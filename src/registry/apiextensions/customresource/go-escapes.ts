// The one-character escapes of a Go string literal (`\n`, `\t`, …), which both the printer columns'
// JSONPath and the CEL rules' fieldPath unquote.
export const goSimpleEscapes: Readonly<Record<string, string>> = {
  a: '\u0007',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};
