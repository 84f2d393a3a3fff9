// JSON text as Go's encoding/json writes it: compact, with the HTML characters and the two line
// separators escaped, and a map's keys sorted even where they are array indexes ("10" before "9"),
// which a JavaScript object lists first. kube-apiserver answers and stores objects in this form;
// writing the same bytes lets a stored encoding be served as it is. Given the scheme, a built-in
// object's RawExtension contents keep their order (raw-extension-contents.ts).
import type { Scheme } from '../../api/scheme.js';
import { indexKeySortedText } from './index-key-text.js';
import { rawExtensionContents } from './raw-extension-contents.js';

const htmlEscapes: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
const htmlChars = /[<>&\u2028\u2029]/g;

/**
 * JSON text with the characters Go's encoder escapes for HTML escaped as Go writes them. Outside
 * strings JSON text has none of them, so only strings change. Most texts have none: five indexOf
 * scans cost a twentieth of a regular expression's over a stored object's text.
 */
export function escapeGoHTML(text: string): string {
  if (
    text.indexOf('<') === -1 &&
    text.indexOf('>') === -1 &&
    text.indexOf('&') === -1 &&
    text.indexOf('\u2028') === -1 &&
    text.indexOf('\u2029') === -1
  ) {
    return text;
  }
  htmlChars.lastIndex = 0;
  return text.replace(htmlChars, (c) => htmlEscapes[c] ?? c);
}

/**
 * Whether some object in compact JSON text has a first key starting with a digit, as every object
 * with an array-index key has: a brace, a quote, a digit. A quote in a string is escaped, so
 * strings never match.
 */
const digitKeyFirst = /\{"[0-9]/;

/** The same as digitKeyFirst in indented text, where spaces and a line break may follow the brace. */
function hasDigitKeyFirstIndented(text: string): boolean {
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) {
    let j = i + 1;
    let c = text.charCodeAt(j);
    while (c === 0x20 || c === 0x0a) c = text.charCodeAt(++j);
    if (c !== 0x22) continue;
    c = text.charCodeAt(j + 1);
    if (c >= 0x30 && c <= 0x39) return true;
  }
  return false;
}

/**
 * Go's json.Marshal text of a JSON-shaped value (indented by two spaces when `pretty`). With the
 * scheme of a built-in object (or typed list), the contents of its RawExtensions are written in
 * their own order, index keys included, where every other object with an index key is sorted; the
 * scheme is looked at only for text that has such a key.
 */
export function goJSONText(value: unknown, pretty = false, scheme?: Scheme): string {
  let text = (pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)) as string | undefined;
  if (text === undefined) return 'null';
  if (pretty ? hasDigitKeyFirstIndented(text) : digitKeyFirst.test(text)) {
    const raw = scheme === undefined ? undefined : rawExtensionContents(scheme, value);
    text = indexKeySortedText(value, pretty, raw) ?? 'null';
  }
  return escapeGoHTML(text);
}

/**
 * A value's text as goJSONText writes it inside a larger object, for a value whose text depends on
 * nothing around it: undefined when it holds an array-index key (where such a key's object sits
 * decides its order: raw-extension-contents.ts) or is not JSON.
 */
export function goJSONMemberText(value: unknown): string | undefined {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined || digitKeyFirst.test(text) ? undefined : escapeGoHTML(text);
}
