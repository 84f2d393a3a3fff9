// The one place objects become bytes. JSON is written as Go's encoding/json Encoder writes it
// (compact, HTML characters escaped, newline-terminated; pretty output indented by two spaces
// without the newline); YAML as sigs.k8s.io/yaml writes it (keys sorted, block sequences unindented).
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';
import type { MediaTypeName } from '../negotiation/media-types.js';

const htmlEscapes: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
const htmlChars = /[<>&\u2028\u2029]/g;

/** Go's json.Marshal text of a JSON-shaped value. */
export function goJSONText(value: unknown, pretty = false): string {
  const text = (pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)) as string | undefined;
  if (text === undefined) return 'null';
  htmlChars.lastIndex = 0;
  return htmlChars.test(text) ? text.replace(htmlChars, (c) => htmlEscapes[c] ?? c) : text;
}

export function encodeJSON(value: unknown, pretty = false): string {
  return pretty ? goJSONText(value, true) : `${goJSONText(value)}\n`;
}

export function encodeYAML(value: unknown): string {
  // Round-trip through JSON so undefined fields vanish exactly as they do in JSON output.
  const plain: unknown = JSON.parse(goJSONText(value));
  return yamlLibrary().stringify(plain, { sortMapEntries: true, indentSeq: false, lineWidth: 0 });
}

export function encode(value: unknown, mediaType: MediaTypeName, pretty: boolean): string {
  switch (mediaType) {
    case 'application/json':
      return encodeJSON(value, pretty);
    case 'application/yaml':
      return encodeYAML(value);
  }
}
