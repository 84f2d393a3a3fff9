// JSON text as Go's encoding/json writes it: compact, with the HTML characters and the two line
// separators escaped. kube-apiserver answers and stores objects in this form; writing the same bytes
// lets a stored encoding be served as it is.

const htmlEscapes: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
const htmlChars = /[<>&\u2028\u2029]/g;

/** Go's json.Marshal text of a JSON-shaped value (indented by two spaces when `pretty`). */
export function goJSONText(value: unknown, pretty = false): string {
  const text = (pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)) as string | undefined;
  if (text === undefined) return 'null';
  htmlChars.lastIndex = 0;
  return htmlChars.test(text) ? text.replace(htmlChars, (c) => htmlEscapes[c] ?? c) : text;
}
