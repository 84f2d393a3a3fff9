// YAML request bodies become JSON before decoding, as sigs.k8s.io/yaml's YAMLToJSON does.
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';

export class YAMLSyntaxError extends Error {}

/** The JSON text of a YAML body; throws YAMLSyntaxError with a go-yaml-like message. */
export function yamlToJSONText(body: Buffer): string {
  const doc = yamlLibrary().parseDocument(body.toString('utf8'), { uniqueKeys: false, version: '1.1' });
  const first = doc.errors[0];
  if (first !== undefined) {
    const line = first.linePos?.[0].line ?? 1;
    throw new YAMLSyntaxError(
      `error converting YAML to JSON: yaml: line ${line}: ${first.message.split('\n')[0] ?? ''}`,
    );
  }
  return JSON.stringify(doc.toJS({ maxAliasCount: 100 }) ?? null);
}
