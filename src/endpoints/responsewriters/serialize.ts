// The one place objects become bytes. JSON is written as Go's encoding/json Encoder writes it
// (compact, HTML characters escaped, newline-terminated; pretty output indented by two spaces
// without the newline); YAML as sigs.k8s.io/yaml writes it (keys sorted, block sequences unindented).
import { builtinScheme } from '../../api/builtin-scheme.js';
import { goJSONText } from '../../machinery/json/go-json-text.js';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';
import type { MediaTypeName } from '../negotiation/media-types.js';

export { goJSONText };

/** Compact Go JSON of a response object: a built-in object's RawExtension contents keep their order (raw-extension-contents.ts). */
export function objectJSONText(value: unknown): string {
  return goJSONText(value, false, builtinScheme());
}

export function encodeJSON(value: unknown, pretty = false): string {
  return pretty ? goJSONText(value, true, builtinScheme()) : `${objectJSONText(value)}\n`;
}

export function encodeYAML(value: unknown): string {
  // Round-trip through JSON so undefined fields vanish exactly as they do in JSON output (YAML
  // sorts every mapping's keys, a RawExtension's too, as sigs.k8s.io/yaml's JSONToYAML does).
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
